// verdict: mlir-opt-22 accepts, sysdesc refuses
//   /tmp/tmp6xreeaz3/case.mlir:1:77: error: expected '>'
module attributes {dlti.map = #dlti.map<" \\:\n" = #dlti.map<f6E2M3FN = @a::@b>, "a\22{\7F" = array<i32: 153470542>, "L1" = "key>x">} {

}