#include "engine/patterns/new_defects.h"

#include "gtest/gtest.h"
#include "tests/source/test_util.h"

namespace smallfix {
namespace {

using testing::Parse;

std::string Defect(const std::string& before, const std::string& after) {
  return NewDefect(Parse(before), Parse(after));
}

TEST(NewDefectsTest, AValueComparedWithItself) {
  const std::string before =
      "def check(self):\n"
      "    if not self.ff.issubset(self.targets):\n"
      "        raise ValueError(self.ff)\n";
  EXPECT_EQ(Defect(before,
                   "def check(self):\n"
                   "    if not self.targets.issubset(self.targets):\n"
                   "        raise ValueError(self.ff)\n"),
            "compares `self.targets` with itself");
  EXPECT_EQ(Defect("ok = a == b\n", "ok = a == a\n"), "compares `a` with itself");
  EXPECT_EQ(Defect("ok = a < b < c\n", "ok = a < b < b\n"), "compares `b` with itself");
  EXPECT_EQ(Defect("ok = x and y\n", "ok = x and x\n"), "compares `x` with itself");
  EXPECT_EQ(Defect("ok = torch.equal(a, b)\n", "ok = torch.equal(a,  a)\n"),
            "compares `a` with itself");
  // A long value is cut short in the message, never inside a character.
  const std::string name = std::string(56, 'x') + "é" + std::string(10, 'y');  // é: bytes 56, 57
  EXPECT_EQ(Defect("ok = a == b\n", "ok = " + name + " == " + name + "\n"),
            "compares `" + std::string(56, 'x') + "...` with itself");
  // Spelled apart but the same tokens.
  EXPECT_EQ(Defect("ok = d[k] == e[k]\n", "ok = d[k] == d[ k ]\n"), "compares `d[k]` with itself");
}

TEST(NewDefectsTest, SelfComparisonsThatAreNotNewOrNotTheSameValue) {
  // Already in the code before: not the rewrite's.
  EXPECT_EQ(Defect("nan = x != x\ny = 1\n", "nan = x != x\ny = 2\n"), "");
  // Two calls may give two values.
  EXPECT_EQ(Defect("ok = a == b\n", "ok = rand() == rand()\n"), "");
  // A method that is no relation, and a relation with a keyword.
  EXPECT_EQ(Defect("xs.extend(ys)\n", "xs.extend(xs)\n"), "");
  EXPECT_EQ(Defect("ok = torch.allclose(a, b)\n", "ok = torch.allclose(a, a, atol=1)\n"), "");
}

TEST(NewDefectsTest, BranchesOrArmsWithTheSameCode) {
  const std::string before =
      "def show(available):\n"
      "    if available:\n"
      "        print(info() + '\\n')\n"
      "    else:\n"
      "        print('not installed')\n";
  EXPECT_EQ(Defect(before,
                   "def show(available):\n"
                   "    if available:\n"
                   "        print('not installed')\n"
                   "    else:\n"
                   "        print( 'not installed' )  # same\n"),
            "gives `if available` and its `else` the same code");
  EXPECT_EQ(Defect("v = a if c else b\n", "v = a if c else a\n"),
            "gives both arms of `a if c else a` the same value");
  EXPECT_EQ(Defect("if c:\n    f()\nelif d:\n    g()\nelse:\n    h()\n",
                   "if c:\n    f()\nelif d:\n    g()\nelse:\n    g()\n"),
            "gives `if d` and its `else` the same code");
  // Two conditions with one body, `if a or b` written out: people do write that.
  EXPECT_EQ(Defect("if c:\n    f()\nelif d:\n    g()\n", "if c:\n    f()\nelif d:\n    f()\n"), "");
}

TEST(NewDefectsTest, AMethodTestedWithoutACall) {
  const std::string before =
      "class Checkpoint:\n"
      "    def on_epoch_end(self):\n"
      "        pass\n"
      "    def should_save(self) -> bool:\n"
      "        if self._save_on_end is not None:\n"
      "            return self._save_on_end\n"
      "        return False\n";
  std::string after = before;
  after.replace(after.find("return self._save_on_end"), 24, "return self.on_epoch_end");
  EXPECT_EQ(Defect(before, after), "tests the method `self.on_epoch_end` without calling it");
  std::string in_condition = before;
  in_condition.replace(in_condition.find("self._save_on_end is"), 17, "self.on_epoch_end");
  EXPECT_EQ(Defect(before, in_condition),
            "tests the method `self.on_epoch_end` without calling it");
  // A decorator that keeps it a method; a property is a value.
  const std::string decorated =
      "class Checkpoint:\n"
      "    @override\n"
      "    def on_epoch_end(self):\n"
      "        pass\n"
      "    @property\n"
      "    def ready(self):\n"
      "        return True\n"
      "    def should_save(self) -> bool:\n"
      "        return self._save\n";
  std::string override_after = decorated;
  override_after.replace(override_after.find("return self._save"), 17, "return self.on_epoch_end");
  EXPECT_EQ(Defect(decorated, override_after),
            "tests the method `self.on_epoch_end` without calling it");
  std::string property_after = decorated;
  property_after.replace(property_after.find("return self._save"), 17, "return self.ready");
  EXPECT_EQ(Defect(decorated, property_after), "");
  // Returned from a def that does not say it returns a bool: it may return the method itself.
  EXPECT_EQ(
      Defect("class A:\n    def f(self):\n        pass\n    def g(self):\n        return self.x\n",
             "class A:\n    def f(self):\n        pass\n    def g(self):\n        return self.f\n"),
      "");
  // Called, or passed on as a callback: not a defect.
  std::string called = before;
  called.replace(called.find("return self._save_on_end"), 24, "return self.on_epoch_end()");
  EXPECT_EQ(Defect(before, called), "");
  EXPECT_EQ(
      Defect("class A:\n    def f(self):\n        pass\n    def g(self):\n        hook(self.x)\n",
             "class A:\n    def f(self):\n        pass\n    def g(self):\n        hook(self.f)\n"),
      "");
}

TEST(NewDefectsTest, AContinueOnWhatTheLoopNeverChanges) {
  const std::string before =
      "def log(self, values, log_kwargs=None):\n"
      "    for tracker in self.trackers:\n"
      "        tracker.log(values, **log_kwargs.get(tracker.name, {}))\n";
  EXPECT_EQ(
      Defect(before,
             "def log(self, values, log_kwargs=None):\n"
             "    for tracker in self.trackers:\n"
             "        if log_kwargs is None:\n"
             "            continue\n"
             "        tracker.log(values, **log_kwargs.get(tracker.name, {}))\n"),
      "skips with `continue` on `log_kwargs is None`, which no iteration of the loop changes");
  // On the loop's own variable: each iteration has another.
  EXPECT_EQ(Defect(before,
                   "def log(self, values, log_kwargs=None):\n"
                   "    for tracker in self.trackers:\n"
                   "        if tracker.name is None:\n"
                   "            continue\n"
                   "        tracker.log(values, **log_kwargs.get(tracker.name, {}))\n"),
            "");
}

TEST(NewDefectsTest, AContinueOnWhatTheLoopMayChange) {
  const std::string before =
      "def drain(queue, items):\n"
      "    for item in items:\n"
      "        queue.push(item)\n";
  // A call in the loop may change what `queue.full` is.
  EXPECT_EQ(Defect(before,
                   "def drain(queue, items):\n"
                   "    for item in items:\n"
                   "        if queue.full:\n"
                   "            continue\n"
                   "        queue.push(item)\n"),
            "");
  // Assigned in the loop.
  EXPECT_EQ(Defect("def f(xs):\n    last = None\n    for x in xs:\n        last = x\n",
                   "def f(xs):\n    last = None\n    for x in xs:\n        if last is None:\n"
                   "            continue\n        last = x\n"),
            "");
  // A while loop is left alone: what its body calls decides.
  EXPECT_EQ(Defect("def f(q):\n    while q.n:\n        q.step()\n",
                   "def f(q):\n    while q.n:\n        if q.head is None:\n            continue\n"
                   "        q.step()\n"),
            "");
}

TEST(NewDefectsTest, AGuardOfTheLoopsWholeBodyOnWhatTheLoopNeverChanges) {
  const std::string before =
      "def log(self, values, log_kwargs):\n"
      "    for tracker in self.trackers:\n"
      "        tracker.log(values, **log_kwargs.get(tracker.name, {}))\n";
  EXPECT_EQ(Defect(before,
                   "def log(self, values, log_kwargs):\n"
                   "    for tracker in self.trackers:\n"
                   "        if log_kwargs is not None:\n"
                   "            tracker.log(values, **log_kwargs.get(tracker.name, {}))\n"),
            "guards the loop's whole body with `log_kwargs is not None`, which no iteration "
            "changes: the guard belongs around the loop");
  // Around the loop: the same condition, tested once.
  EXPECT_EQ(Defect(before,
                   "def log(self, values, log_kwargs):\n"
                   "    if log_kwargs is not None:\n"
                   "        for tracker in self.trackers:\n"
                   "            tracker.log(values, **log_kwargs.get(tracker.name, {}))\n"),
            "");
}

TEST(NewDefectsTest, LoopGuardsThatAreNotNewOrNotInvariant) {
  const std::string before =
      "def run(items, verbose):\n"
      "    for item in items:\n"
      "        if verbose:\n"
      "            print(item)\n";
  // The code had such a guard: a rewrite of its condition adds none.
  EXPECT_EQ(Defect(before,
                   "def run(items, verbose):\n"
                   "    for item in items:\n"
                   "        if verbose > 1:\n"
                   "            print(item)\n"),
            "");
  // On the loop's variable.
  EXPECT_EQ(Defect("def run(items):\n    for item in items:\n        print(item)\n",
                   "def run(items):\n    for item in items:\n        if item is not None:\n"
                   "            print(item)\n"),
            "");
  // Not the whole body: the loop does other work every iteration.
  EXPECT_EQ(Defect("def run(items, w):\n    for item in items:\n        w.add(item)\n"
                   "        print(item)\n",
                   "def run(items, w):\n    for item in items:\n        if w is not None:\n"
                   "            w.add(item)\n        print(item)\n"),
            "");
  // With an `else`, both arms run somewhere: a choice, not a skip.
  EXPECT_EQ(Defect("def run(items, w):\n    for item in items:\n        w.add(item)\n",
                   "def run(items, w):\n    for item in items:\n        if w is not None:\n"
                   "            w.add(item)\n        else:\n            print(item)\n"),
            "");
}

TEST(NewDefectsTest, AStarParameterWhoseLastUseIsGone) {
  const std::string before =
      "class Launch:\n"
      "    def __call__(self, index, *args):\n"
      "        os.environ['RANK'] = str(index)\n"
      "        self.launcher(*args)\n";
  EXPECT_EQ(Defect(before,
                   "class Launch:\n"
                   "    def __call__(self, index, *args):\n"
                   "        os.environ['RANK'] = str(index)\n"),
            "leaves `args` of `__call__` unread: what its callers pass there is dropped");
  // `**kwargs`, typed, dropped from the call that forwarded it; a keyword named like it is no use.
  EXPECT_EQ(Defect("def build(x, **kwargs: Any):\n    return make(x, **kwargs)\n",
                   "def build(x, **kwargs: Any):\n    return make(x, kwargs=1)\n"),
            "leaves `kwargs` of `build` unread: what its callers pass there is dropped");
}

TEST(NewDefectsTest, StarParametersThatStayReadOrWereNeverRead) {
  // Still read, in a nested def.
  EXPECT_EQ(Defect("def wrap(*args):\n    f(*args)\n    g(*args)\n",
                   "def wrap(*args):\n    def inner():\n        return f(*args)\n    return inner\n"),
            "");
  // Unread before the rewrite too (an interface's catch-all), or named to be ignored.
  EXPECT_EQ(Defect("def hook(self, *args, **kwargs):\n    self.n += 1\n",
                   "def hook(self, *args, **kwargs):\n    self.n += 2\n"),
            "");
  EXPECT_EQ(Defect("def hook(*_args):\n    log(_args)\n", "def hook(*_args):\n    pass\n"), "");
  // Added by the rewrite to accept what callers pass, unread by design.
  EXPECT_EQ(Defect("def forward(self, x):\n    return self.m(x)\n",
                   "def forward(self, x, **kwargs):\n    return self.m(x)\n"),
            "");
  // A named parameter's last use may go: overrides keep the names their interface gives.
  EXPECT_EQ(Defect("def step(self, opt, native):\n    if native:\n        opt.step()\n",
                   "def step(self, opt, native):\n    if self.amp:\n        opt.step()\n"),
            "");
}

}  // namespace
}  // namespace smallfix
