// Reads an MLIR file with DLTI attributes through MLIR 22's C++ API, as a
// compiler pass reads the spec sysdesc wrote, and answers queries from
// standard input, one a line, its words separated by tabs (keys hold blanks):
//   flat DEVICE KEY       DataLayout(module).getDevicePropertyValue(DEVICE, KEY)
//   query KEY KEY ...     dlti::query(module, {KEY, ...})
// Each answer is one line: the attribute as MLIR prints it, or "none"
// (getDevicePropertyValue found nothing) / "failed" (dlti::query failed).
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: mlir_consumer FILE.mlir < queries\n";
    return 2;
  }
  mlir::MLIRContext context;
  // LLVM's dialect, as a pipeline that lowers to LLVM has it: a probed
  // host's data layout holds !llvm.ptr entries (docs/layout.md), which an
  // unregistered dialect's opaque type would not take.
  context.loadDialect<mlir::DLTIDialect, mlir::LLVM::LLVMDialect>();
  context.allowUnregisteredDialects();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], &context);
  if (!module)
    return 1;
  mlir::DataLayout layout(*module);
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream words(line);
    std::string verb, word;
    std::vector<std::string> keys;
    std::getline(words, verb, '\t');
    while (std::getline(words, word, '\t'))
      keys.push_back(word);
    std::string text;
    llvm::raw_string_ostream os(text);
    if (verb == "flat" && keys.size() == 2) {
      auto value = layout.getDevicePropertyValue(
          mlir::StringAttr::get(&context, keys[0]),
          mlir::StringAttr::get(&context, keys[1]));
      if (value)
        value->print(os);
      else
        os << "none";
    } else if (verb == "query") {
      std::vector<llvm::StringRef> refs(keys.begin(), keys.end());
      llvm::FailureOr<mlir::Attribute> value = mlir::dlti::query(*module, refs);
      if (llvm::succeeded(value))
        value->print(os);
      else
        os << "failed";
    } else {
      os << "bad query line: " << line;
    }
    std::cout << text << "\n";
  }
  return 0;
}
