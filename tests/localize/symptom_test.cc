#include "engine/localize/symptom.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace smallfix {
namespace {

using ::testing::Pair;
using ::testing::UnorderedElementsAre;
using ::testing::Contains;

TEST(SymptomTest, ClassesAndFields) {
  Symptom s = ClassifySymptom("AttributeError", "'NoneType' object has no attribute 'div_'");
  EXPECT_EQ(s.symptom_class, "none-attribute");
  EXPECT_EQ(s.fields["attr"], "div_");
  EXPECT_EQ(s.fields["type"], "NoneType");
  EXPECT_EQ(s.Text(), "AttributeError: 'NoneType' object has no attribute 'div_'");

  s = ClassifySymptom("TypeError", "Adam.__init__() got an unexpected keyword argument 'fused'");
  EXPECT_EQ(s.symptom_class, "unexpected-kwarg");
  EXPECT_EQ(s.fields["function"], "Adam.__init__");
  EXPECT_EQ(s.fields["kwarg"], "fused");

  s = ClassifySymptom("TypeError", "__init__() missing 1 required positional argument: 'world_size'");
  EXPECT_EQ(s.symptom_class, "missing-argument");
  EXPECT_EQ(s.fields["function"], "__init__");
  EXPECT_EQ(s.fields["argument"], "world_size");

  s = ClassifySymptom("TypeError", "L.__init__() got multiple values for argument 'in_features'");
  EXPECT_EQ(s.symptom_class, "multiple-values");
  EXPECT_EQ(s.fields["argument"], "in_features");

  s = ClassifySymptom("AttributeError", "module 'torch.distributed' has no attribute 'all_gather_into_tensor'");
  EXPECT_EQ(s.symptom_class, "module-missing-attribute");
  EXPECT_EQ(s.fields["module"], "torch.distributed");
  EXPECT_EQ(s.fields["attr"], "all_gather_into_tensor");

  s = ClassifySymptom("ImportError", "cannot import name 'LRScheduler' from 'torch.optim.lr_scheduler' (/x.py)");
  EXPECT_EQ(s.symptom_class, "import-error");
  EXPECT_EQ(s.fields["name"], "LRScheduler");
  EXPECT_EQ(s.fields["module"], "torch.optim.lr_scheduler");

  s = ClassifySymptom("ModuleNotFoundError", "No module named 'torch._six'");
  EXPECT_EQ(s.fields["module"], "torch._six");

  s = ClassifySymptom("KeyError", "'zero_optimization'");
  EXPECT_EQ(s.symptom_class, "key-error");
  EXPECT_EQ(s.fields["key"], "zero_optimization");

  s = ClassifySymptom("torch.cuda.OutOfMemoryError", "CUDA out of memory. Tried to allocate 64.00 GiB");
  EXPECT_EQ(s.exception_type, "OutOfMemoryError");
  EXPECT_EQ(s.symptom_class, "out-of-memory");
  EXPECT_EQ(s.fields["exception_module"], "torch.cuda");

  s = ClassifySymptom("RuntimeError", "expected scalar type Float but found Half");
  EXPECT_EQ(s.symptom_class, "dtype-device-mismatch");
  EXPECT_EQ(s.fields["expected"], "Float");
  EXPECT_EQ(s.fields["got"], "Half");

  s = ClassifySymptom("TypeError", "'float' object is not subscriptable");
  EXPECT_EQ(s.symptom_class, "other");
  EXPECT_EQ(s.fields["type"], "float");
}

TEST(SymptomTest, TableCoversEveryClass) {
  const std::pair<const char*, const char*> examples[] = {
      {"TypeError", "'NoneType' object is not subscriptable"},
      {"TypeError", "cannot unpack non-iterable NoneType object"},
      {"TypeError", "'NoneType' object is not callable"},
      {"RuntimeError", "Default process group has not been initialized, please make sure to call init_process_group."},
      {"RuntimeError", "The size of tensor a (8) must match the size of tensor b (16) at non-singleton dimension 1"},
      {"RuntimeError", "mat1 and mat2 shapes cannot be multiplied (512x128 and 256x64)"},
      {"RuntimeError", "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"},
      {"IndexError", "list index out of range"},
      {"AssertionError", ""},
      {"ZeroDivisionError", "division by zero"},
      {"RuntimeError", "[../gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 8000ms for recv"},
      {"RuntimeError", "DefaultCPUAllocator: can't allocate memory: you tried to allocate 8796093022208 bytes."},
      {"NameError", "name 'x' is not defined"},
  };
  const char* classes[] = {"none-subscript", "none-iterate", "none-call", "process-group-not-initialized",
                           "shape-mismatch", "shape-mismatch", "dtype-device-mismatch", "index-error",
                           "assertion", "zero-division", "timeout-or-hang", "out-of-memory", "other"};
  for (size_t i = 0; i < std::size(examples); ++i) {
    EXPECT_EQ(ClassifySymptom(examples[i].first, examples[i].second).symptom_class, classes[i])
        << examples[i].second;
  }
}

TEST(SymptomTest, HangsAndSecondaryLevels) {
  const Symptom hang = HangSymptom("Timeout (0:00:12)!");
  EXPECT_EQ(hang.exception_type, "");
  EXPECT_EQ(hang.Text(), "Timeout (0:00:12)!");
  EXPECT_EQ(SecondaryLevel(hang), 1);
  EXPECT_EQ(SecondaryLevel(ClassifySymptom("RuntimeError", "[pair.cc:598] Connection closed by peer [127.0.0.1]:1")), 2);
  EXPECT_EQ(SecondaryLevel(ClassifySymptom("KeyError", "'a'")), 0);
}

// Symptom::FromText splits "Type: message" as a traceback's last line prints it, without
// classifying: the type stays whole, and text that does not start with a type is all message.
TEST(SymptomTest, FromTextSplitsTypeAndMessage) {
  Symptom s = Symptom::FromText("torch.cuda.OutOfMemoryError: CUDA out of memory.\n");
  EXPECT_EQ(s.exception_type, "torch.cuda.OutOfMemoryError");
  EXPECT_EQ(s.message, "CUDA out of memory.");
  EXPECT_EQ(s.symptom_class, "");
  EXPECT_TRUE(s.fields.empty());

  s = Symptom::FromText("KeyboardInterrupt");
  EXPECT_EQ(s.exception_type, "KeyboardInterrupt");
  EXPECT_EQ(s.message, "");

  s = Symptom::FromText("'NoneType' object is not iterable: in collate");
  EXPECT_EQ(s.exception_type, "");
  EXPECT_EQ(s.message, "'NoneType' object is not iterable: in collate");
  EXPECT_EQ(s.Text(), s.message);

  s = Symptom::FromText("");
  EXPECT_EQ(s.Text(), "");
}

// Text given as a symptom (--symptom, a template's example) is classified as localization
// classifies a traceback's last line; no type and no message is no symptom.
TEST(SymptomTest, ClassifiedSymptomFromTextClassifiesLikeATraceback) {
  const Symptom s =
      ClassifiedSymptomFromText("AttributeError: 'NoneType' object has no attribute 'div_'");
  const Symptom expected =
      ClassifySymptom("AttributeError", "'NoneType' object has no attribute 'div_'");
  EXPECT_EQ(s.exception_type, expected.exception_type);
  EXPECT_EQ(s.message, expected.message);
  EXPECT_EQ(s.symptom_class, "none-attribute");
  EXPECT_EQ(s.fields, expected.fields);

  const Symptom dotted = ClassifiedSymptomFromText("torch.cuda.OutOfMemoryError: CUDA out of memory.");
  EXPECT_EQ(dotted.exception_type, "OutOfMemoryError");
  EXPECT_THAT(dotted.fields, Contains(Pair("exception_module", "torch.cuda")));

  const Symptom none = ClassifiedSymptomFromText(" \n");
  EXPECT_EQ(none.exception_type, "");
  EXPECT_EQ(none.message, "");
  EXPECT_EQ(none.symptom_class, "");
}

}  // namespace
}  // namespace smallfix
