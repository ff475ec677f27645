!addr = !llvm.ptr<3>
!addr = !llvm.ptr<5>
module {}
