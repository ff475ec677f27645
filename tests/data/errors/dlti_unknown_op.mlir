// sysdesc-error: 3:26: a DLTI attribute inside operation 'foo.op', whose syntax sysdesc does not know: sysdesc reads DLTI attributes on modules, on func.func, gpu.module, gpu.func and llvm.func, and on ops in the generic form
module {
  foo.op attributes {x = #dlti.map<"a" = 1>}
}
