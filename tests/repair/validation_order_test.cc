#include "engine/repair/validation_order.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace smallfix {
namespace {

using std::chrono::milliseconds;

ValidationStatus StatusNamed(const std::string& name) {
  for (ValidationStatus status : {ValidationStatus::kPlausible, ValidationStatus::kFailed, ValidationStatus::kError,
                                  ValidationStatus::kTimeout, ValidationStatus::kSkipped}) {
    if (ValidationStatusName(status) == name) return status;
  }
  ADD_FAILURE() << "unknown status " << name;
  return ValidationStatus::kError;
}

// A fake validation: candidate i ends with outcomes[i] after delays[i] ms, unless stopped
// first (then it returns "failed", as a killed test run does). Records what started.
struct FakeValidator {
  FakeValidator(std::vector<std::string> outcomes, std::vector<int> delays)
      : outcomes(std::move(outcomes)), delays(std::move(delays)) {}

  std::vector<std::string> outcomes;
  std::vector<int> delays;
  std::mutex mutex;
  std::set<size_t> started;
  std::set<size_t> stopped;

  ValidationResult operator()(size_t i, const std::atomic<bool>* stop) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      started.insert(i);
    }
    const auto deadline = std::chrono::steady_clock::now() + milliseconds(delays[i]);
    while (std::chrono::steady_clock::now() < deadline) {
      if (stop->load()) {
        std::lock_guard<std::mutex> lock(mutex);
        stopped.insert(i);
        ValidationResult result;
        result.status = ValidationStatus::kFailed;
        return result;
      }
      std::this_thread::sleep_for(milliseconds(2));
    }
    ValidationResult result;
    result.status = StatusNamed(outcomes[i]);
    return result;
  }
  ValidateFunction Function() {
    return [this](size_t i, const std::atomic<bool>* stop) { return (*this)(i, stop); };
  }
};

std::vector<std::string> Statuses(const ValidationOrderOutcome& outcome) {
  std::vector<std::string> out;
  for (const ValidationResult& result : outcome.results) out.push_back(std::string(ValidationStatusName(result.status)));
  return out;
}

TEST(ValidationOrderTest, OneJobStopsAtTheFirstPlausible) {
  FakeValidator fake{{"failed", "plausible", "plausible", "failed"}, {0, 0, 0, 0}};
  const ValidationOrderOutcome outcome = ValidateInOrder(4, fake.Function(), {});
  EXPECT_EQ(Statuses(outcome), (std::vector<std::string>{"failed", "plausible", "skipped", "skipped"}));
  EXPECT_EQ(outcome.validated, 2);
  EXPECT_EQ(fake.started, (std::set<size_t>{0, 1}));
}

TEST(ValidationOrderTest, TopTwoValidatesUntilTwoArePlausible) {
  FakeValidator fake{{"plausible", "failed", "plausible", "plausible"}, {0, 0, 0, 0}};
  ValidationOrderOptions options;
  options.top = 2;
  const ValidationOrderOutcome outcome = ValidateInOrder(4, fake.Function(), options);
  EXPECT_EQ(Statuses(outcome), (std::vector<std::string>{"plausible", "failed", "plausible", "skipped"}));
  EXPECT_EQ(fake.started.count(3), 0u);
}

TEST(ValidationOrderTest, NothingPlausibleValidatesEveryCandidate) {
  FakeValidator fake{{"failed", "timeout", "error"}, {0, 0, 0}};
  ValidationOrderOptions options;
  options.jobs = 2;
  const ValidationOrderOutcome outcome = ValidateInOrder(3, fake.Function(), options);
  EXPECT_EQ(Statuses(outcome), (std::vector<std::string>{"failed", "timeout", "error"}));
  EXPECT_EQ(outcome.validated, 3);
}

// With two jobs, candidate 2 turns plausible while the better-ranked candidate 1 still runs:
// candidate 1 is waited for (it is plausible too, so it wins), and candidate 2 is kept.
TEST(ValidationOrderTest, JobsWaitForABetterRankedCandidateStillRunning) {
  FakeValidator fake{{"plausible", "plausible", "plausible"}, {300, 0, 0}};
  ValidationOrderOptions options;
  options.jobs = 2;
  const ValidationOrderOutcome outcome = ValidateInOrder(3, fake.Function(), options);
  EXPECT_EQ(outcome.results[0].status, ValidationStatus::kPlausible);
  EXPECT_TRUE(fake.stopped.empty());
  // The first plausible in rank order is candidate 0, whatever finished first.
  size_t first = 0;
  while (first < outcome.results.size() && outcome.results[first].status != ValidationStatus::kPlausible) ++first;
  EXPECT_EQ(first, 0u);
}

// A worse-ranked candidate still running when a better one turns plausible is stopped and
// reported as skipped, not as failed.
TEST(ValidationOrderTest, CutOffStopsAWorseCandidateThatIsRunning) {
  FakeValidator fake{{"plausible", "plausible"}, {20, 5000}};
  ValidationOrderOptions options;
  options.jobs = 2;
  const auto start = std::chrono::steady_clock::now();
  const ValidationOrderOutcome outcome = ValidateInOrder(2, fake.Function(), options);
  EXPECT_LT(std::chrono::steady_clock::now() - start, milliseconds(3000));
  EXPECT_EQ(Statuses(outcome), (std::vector<std::string>{"plausible", "skipped"}));
  EXPECT_EQ(fake.stopped, (std::set<size_t>{1}));
}

TEST(ValidationOrderTest, JobsRunCandidatesAtOnce) {
  FakeValidator fake{{"failed", "failed", "failed", "failed"}, {200, 200, 200, 200}};
  ValidationOrderOptions options;
  options.jobs = 4;
  const auto start = std::chrono::steady_clock::now();
  ValidateInOrder(4, fake.Function(), options);
  // One at a time would take 800 ms.
  EXPECT_LT(std::chrono::steady_clock::now() - start, milliseconds(700));
  EXPECT_EQ(fake.started.size(), 4u);
}

TEST(ValidationOrderTest, CancellationStopsRunningAndUnstartedCandidates) {
  FakeValidator fake{{"plausible", "plausible", "plausible"}, {5000, 5000, 5000}};
  std::atomic<bool> cancel{false};
  ValidationOrderOptions options;
  options.cancel = &cancel;
  std::thread canceller([&] {
    std::this_thread::sleep_for(milliseconds(100));
    cancel = true;
  });
  const auto start = std::chrono::steady_clock::now();
  const ValidationOrderOutcome outcome = ValidateInOrder(3, fake.Function(), options);
  canceller.join();
  EXPECT_LT(std::chrono::steady_clock::now() - start, milliseconds(3000));
  EXPECT_EQ(Statuses(outcome), (std::vector<std::string>{"skipped", "skipped", "skipped"}));
  EXPECT_EQ(fake.started, (std::set<size_t>{0}));
  EXPECT_EQ(outcome.validated, 1);
}

TEST(ValidationOrderTest, CallbacksSeeEveryValidatedCandidate) {
  FakeValidator fake{{"failed", "plausible"}, {0, 0}};
  std::vector<size_t> started, finished;
  ValidationOrderOptions options;
  options.started = [&](size_t i) { started.push_back(i); };
  options.finished = [&](size_t i, const ValidationResult&) { finished.push_back(i); };
  ValidateInOrder(2, fake.Function(), options);
  EXPECT_EQ(started, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(finished, (std::vector<size_t>{0, 1}));
}

// A weak plausible candidate (a deletion, say) does not end validation: the look-ahead finds
// candidate 2, plausible and not weak, and the search stops there.
TEST(ValidationOrderTest, AWeakPlausibleLooksAheadForOneThatIsNot) {
  FakeValidator fake{{"plausible", "failed", "plausible", "plausible"}, {0, 0, 0, 0}};
  ValidationOrderOptions options;
  options.weak = [](size_t i) { return i == 0; };
  options.weak_lookahead = 5;
  const ValidationOrderOutcome outcome = ValidateInOrder(4, fake.Function(), options);
  EXPECT_EQ(Statuses(outcome), (std::vector<std::string>{"plausible", "failed", "plausible", "skipped"}));
  EXPECT_EQ(fake.started, (std::set<size_t>{0, 1, 2}));
}

// With none found within the look-ahead, validation stops at its end; a weak candidate found
// there does not open another look-ahead beyond the first's.
TEST(ValidationOrderTest, TheLookAheadEndsWhereItSays) {
  FakeValidator fake{{"plausible", "failed", "plausible", "plausible", "plausible"}, {0, 0, 0, 0, 0}};
  ValidationOrderOptions options;
  options.weak = [](size_t i) { return i != 4; };
  options.weak_lookahead = 2;
  const ValidationOrderOutcome outcome = ValidateInOrder(5, fake.Function(), options);
  EXPECT_EQ(Statuses(outcome), (std::vector<std::string>{"plausible", "failed", "plausible", "skipped", "skipped"}));
  EXPECT_EQ(fake.started, (std::set<size_t>{0, 1, 2}));
}

// Without a look-ahead a weak candidate is an answer like any other.
TEST(ValidationOrderTest, NoLookAheadStopsAtAWeakPlausible) {
  FakeValidator fake{{"plausible", "plausible"}, {0, 0}};
  ValidationOrderOptions options;
  options.weak = [](size_t) { return true; };
  const ValidationOrderOutcome outcome = ValidateInOrder(2, fake.Function(), options);
  EXPECT_EQ(Statuses(outcome), (std::vector<std::string>{"plausible", "skipped"}));
}

}  // namespace
}  // namespace smallfix
