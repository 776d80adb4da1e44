#include "engine/localize/argument_check.h"

#include <gtest/gtest.h>

#include "engine/localize/symptom.h"

namespace smallfix {
namespace {

RepoSearch Sources() {
  return RepoSearch::ForTexts({
      {"comm/wrappers.py",
       "import torch\n\n\ndef _check_tensor(tensor, name):\n"
       "    if not isinstance(tensor, torch.Tensor):\n"
       "        raise TypeError(f\"Expected {name} to be of type torch.Tensor\")\n\n\n"
       "def all_reduce(tensor, op=\"sum\"):\n    _check_tensor(tensor, \"tensor\")\n"
       "    return tensor\n\n\ndef size():\n    raise ValueError(\"world size must be set\")\n"},
      {"engine/trainer.py", "def reduce(self, grads):\n    comm.all_reduce(grads)\n"},
      {"tests/test_comm.py", "def test_reduce():\n    comm.all_reduce([1])\n"},
  });
}

TEST(ArgumentCheckTest, Messages) {
  EXPECT_TRUE(
      IsArgumentCheck(ClassifySymptom("TypeError", "Expected tensor to be of type torch.Tensor")));
  EXPECT_TRUE(
      IsArgumentCheck(ClassifySymptom("ValueError", "src must be a non-negative rank, got -1")));
  EXPECT_TRUE(IsArgumentCheck(ClassifySymptom("TypeError", "invalid argument 'tensors'")));
  EXPECT_FALSE(IsArgumentCheck(ClassifySymptom("KeyError", "'zero_optimization'")));
}

TEST(ArgumentCheckTest, TheCallerOutsideTheWrapperModule) {
  RepoSearch search = Sources();
  const Symptom symptom =
      ClassifySymptom("TypeError", "Expected tensor to be of type torch.Tensor, got list");
  const std::vector<FramePlace> frames = {{"comm/wrappers.py", 6, false},
                                          {"comm/wrappers.py", 10, false},
                                          {"engine/trainer.py", 2, false}};
  EXPECT_EQ(ArgumentCheckCaller(symptom, frames, search), 2u);
}

TEST(ArgumentCheckTest, NotWhenATestPassedTheValueOrNoParameterIsChecked) {
  RepoSearch search = Sources();
  const Symptom symptom =
      ClassifySymptom("TypeError", "Expected tensor to be of type torch.Tensor, got list");
  // A test called the wrapper: the check itself may be what is wrong.
  EXPECT_EQ(ArgumentCheckCaller(symptom,
                                {{"comm/wrappers.py", 6, false},
                                 {"comm/wrappers.py", 10, false},
                                 {"tests/test_comm.py", 2, true}},
                                search),
            std::nullopt);
  // Only the wrapper's frames: the caller is outside the repo.
  EXPECT_EQ(ArgumentCheckCaller(
                symptom, {{"comm/wrappers.py", 6, false}, {"comm/wrappers.py", 10, false}}, search),
            std::nullopt);
  // The raise checks no parameter (size() has none).
  EXPECT_EQ(ArgumentCheckCaller(ClassifySymptom("ValueError", "world size must be set"),
                                {{"comm/wrappers.py", 15, false}, {"engine/trainer.py", 2, false}},
                                search),
            std::nullopt);
}

}  // namespace
}  // namespace smallfix
