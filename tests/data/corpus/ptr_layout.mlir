// RUN: mlir-opt --test-data-layout-query --split-input-file --verify-diagnostics %s
// sysdesc's own cases for the ptr dialect's data layout of MLIR's newest
// tests (mlir/test/Dialect/Ptr/layout.mlir), written anew: #ptr.spec entries
// and the layout of !ptr.ptr.

module attributes { dlti.dl_spec = #dlti.dl_spec<
  !ptr.ptr<#test.const_memory_space> = #ptr.spec<size = 32, abi = 32, preferred = 64>,
  !ptr.ptr<#test.const_memory_space<6>> = #ptr.spec<size = 64, abi = 64, preferred = 64>,
  !ptr.ptr<#test.const_memory_space<2>> = #ptr.spec<size = 32, abi = 64, preferred = 64, index = 16>,
  "dlti.default_memory_space" = #test.const_memory_space<9>,
  "dlti.alloca_memory_space" = #test.const_memory_space<6>,
  "dlti.stack_alignment" = 64 : i64
>} {
  func.func @entries() {
    "test.data_layout_query"() : () -> !ptr.ptr<#test.const_memory_space>
    "test.data_layout_query"() : () -> !ptr.ptr<#test.const_memory_space<0>>
    "test.data_layout_query"() : () -> !ptr.ptr<#test.const_memory_space<1>>
    "test.data_layout_query"() : () -> !ptr.ptr<#test.const_memory_space<6>>
    "test.data_layout_query"() : () -> !ptr.ptr<#test.const_memory_space<2>>
    "test.data_layout_query"() : () -> !ptr.ptr<#test.const_memory_space<9>>
    return
  }
}

// -----

// Spaces without an entry take the default memory space's pointer.
module attributes { dlti.dl_spec = #dlti.dl_spec<
  !ptr.ptr<#llvm.address_space<1>> = #ptr.spec<size = 16, abi = 16, preferred = 32>,
  "dlti.default_memory_space" = #llvm.address_space<1>
>} {
  func.func @fallback() {
    "test.data_layout_query"() : () -> !ptr.ptr<#llvm.address_space<1>>
    "test.data_layout_query"() : () -> !ptr.ptr<#llvm.address_space<0>>
    "test.data_layout_query"() : () -> !ptr.ptr<#llvm.address_space<7>>
    "test.data_layout_query"() : () -> !ptr.ptr<#ptr.generic_space>
    "test.data_layout_query"() : () -> !ptr.ptr<#test.const_memory_space<3>>
    return
  }
}

// -----

// The generic space, written without its blanks.
module attributes { dlti.dl_spec = #dlti.dl_spec<
  !ptr.ptr<#ptr.generic_space> = #ptr.spec<size=32,abi=32,preferred=32,index=24>,
  "dlti.default_memory_space" = #ptr.generic_space
>} {
  func.func @generic() {
    "test.data_layout_query"() : () -> !ptr.ptr<#ptr.generic_space>
    "test.data_layout_query"() : () -> !ptr.ptr<#llvm.address_space<4>>
    return
  }
}

// -----

// No spec at all: 64-bit pointers aligned as the ptr dialect defaults.
module {
  func.func @no_spec() {
    "test.data_layout_query"() : () -> !ptr.ptr<#ptr.generic_space>
    "test.data_layout_query"() : () -> !ptr.ptr<#llvm.address_space<3>>
    "test.data_layout_query"() : () -> !ptr.ptr<#test.const_memory_space<5>>
    return
  }
}

// -----

// A default memory space that is no memory space attribute.
module attributes { dlti.dl_spec = #dlti.dl_spec<"dlti.default_memory_space" = 3 : ui32>} {
  func.func @plain_default() {
    "test.data_layout_query"() : () -> !ptr.ptr<#test.const_memory_space<3>>
    return
  }
}

// -----

module attributes { dlti.dl_spec = #dlti.dl_spec<
  !ptr.ptr<#test.const_memory_space> = #ptr.spec<size = 32, abi = 64, preferred = 16>
>} {
}

// -----

module attributes { dlti.dl_spec = #dlti.dl_spec<
  !ptr.ptr<#test.const_memory_space> = #ptr.spec<size = 20, abi = 32, preferred = 32>
>} {
}

// -----

module attributes { dlti.dl_spec = #dlti.dl_spec<
  !ptr.ptr<#test.const_memory_space> = #ptr.spec<size = 32, abi = 12, preferred = 32>
>} {
}

// -----

module attributes { dlti.dl_spec = #dlti.dl_spec<
  !ptr.ptr<#test.const_memory_space> = #ptr.spec<size = 32, abi = 32, preferred = 36>
>} {
}

// -----

module attributes { dlti.dl_spec = #dlti.dl_spec<
  !ptr.ptr<#test.const_memory_space> = #ptr.spec<size = 32, abi = 32, preferred = 32, index = 31>
>} {
}

// -----

module attributes { dlti.dl_spec = #dlti.dl_spec<
  !ptr.ptr<#test.const_memory_space> = #ptr.spec<size = 32, abi = 32>
>} {
}

// -----

module attributes { dlti.dl_spec = #dlti.dl_spec<
  !ptr.ptr<#test.const_memory_space> = dense<[32, 32, 32]> : vector<3xi64>
>} {
}
