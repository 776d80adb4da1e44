#include "engine/scan/def_signatures.h"

#include "gtest/gtest.h"

namespace smallfix {
namespace {

TEST(DefSignaturesTest, ParameterListsOnly) {
  EXPECT_EQ(DefSignatures("def f(x, acc=[]):\n    return g(x, acc=[])\n"), "(x, acc=[])\n");
  EXPECT_EQ(DefSignatures("class A:\n    async def m(self,\n          t={}):  # c\n        pass\n"),
            "(self,\n          t={})\n");
}

TEST(DefSignaturesTest, NestedBracketsStringsAndComments) {
  EXPECT_EQ(DefSignatures("def f(a=g(h(1)), s=\")\", c=')',  # ) not the end\n      d=[]):\n  pass\n"),
            "(a=g(h(1)), s=\")\", c=')',  # ) not the end\n      d=[])\n");
  EXPECT_EQ(DefSignatures("def f[T](x: list[T] = []) -> T: ...\n"), "(x: list[T] = [])\n");
}

TEST(DefSignaturesTest, DefInsideAStringOrACommentIsNotOne) {
  EXPECT_EQ(DefSignatures("s = '''\ndef f(x=[]):\n'''\n# def g(y={}):\nt = r\"\\\"def h(z=[])\"\n"), "");
  EXPECT_EQ(DefSignatures("undefined(x=[])\nnot_def = 1\n"), "");
}

TEST(DefSignaturesTest, WhatItCannotTellGivesTheWholeText) {
  const std::string open_string = "x = '''never closed\ndef f(a=[]):\n";
  EXPECT_EQ(DefSignatures(open_string), open_string);
  const std::string open_list = "def f(a=[1, 2,\n";
  EXPECT_EQ(DefSignatures(open_list), open_list);
}

}  // namespace
}  // namespace smallfix
