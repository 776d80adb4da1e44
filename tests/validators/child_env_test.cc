#include "validators/process/child_env.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "validators/process/process.h"

namespace smallfix {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::UnorderedElementsAre;

TEST(ChildEnvTest, SecretsSmallfixCiAndCloudsUse) {
  for (const char* name : {"GITHUB_TOKEN",
                           "SMALLFIX_GITHUB_TOKEN",
                           "SMALLFIX_LLM_API_KEY",
                           "OPENAI_API_KEY",
                           "ACTIONS_RUNTIME_TOKEN",
                           "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
                           "ACTIONS_ID_TOKEN_REQUEST_URL",
                           "CI_JOB_TOKEN",
                           "CI_JOB_JWT_V2",
                           "CI_REGISTRY_PASSWORD",
                           "HF_TOKEN",
                           "WANDB_API_KEY",
                           "AWS_ACCESS_KEY_ID",
                           "AWS_SECRET_ACCESS_KEY",
                           "AWS_SESSION_TOKEN",
                           "GOOGLE_APPLICATION_CREDENTIALS",
                           "AZURE_CLIENT_SECRET",
                           "AZURE_CLIENT_ID",
                           "PGPASSWORD",
                           "db_password",
                           "Stripe_Api_Key",
                           "SSH_AUTH_SOCK",
                           "GIT_ASKPASS"}) {
    EXPECT_TRUE(LooksSecret(name)) << name;
  }
}

TEST(ChildEnvTest, WhatTestsNeedIsNotSecret) {
  for (const char* name :
       {"PATH", "HOME", "PYTHONPATH", "TOKENIZERS_PARALLELISM", "MASTER_ADDR", "MASTER_PORT",
        "CUDA_VISIBLE_DEVICES", "OMP_NUM_THREADS", "CI", "GITHUB_WORKSPACE", "GITHUB_SHA",
        "SMALLFIX_WARM_SERVER", "SLURM_CONF", "LANG", "TMPDIR", "HF_HOME"}) {
    EXPECT_FALSE(LooksSecret(name)) << name;
  }
}

TEST(ChildEnvTest, WithheldNamesAreSortedOnceAndPassedOnesStay) {
  const std::vector<std::string> inherited = {"PATH=/bin", "HF_TOKEN=a", "GITHUB_TOKEN=b",
                                              "AWS_SESSION_TOKEN=c", "GITHUB_TOKEN=d"};
  EXPECT_THAT(WithheldNames(inherited, {}),
              ElementsAre("AWS_SESSION_TOKEN", "GITHUB_TOKEN", "HF_TOKEN"));
  EXPECT_THAT(WithheldNames(inherited, {"HF_TOKEN"}),
              ElementsAre("AWS_SESSION_TOKEN", "GITHUB_TOKEN"));
}

TEST(ChildEnvTest, ChildEnvironmentDropsSecretsKeepsPassedAndExtraWins) {
  const std::vector<std::string> inherited = {"PATH=/bin", "HF_TOKEN=hf-value",
                                              "GITHUB_TOKEN=gh-value", "LANG=C",
                                              "TOKENIZERS_PARALLELISM=false"};
  EXPECT_THAT(ChildEnvironment(inherited, {{"LANG", "C.UTF-8"}, {"RANK", "0"}}, {"HF_TOKEN"}),
              UnorderedElementsAre("PATH=/bin", "HF_TOKEN=hf-value", "TOKENIZERS_PARALLELISM=false",
                                   "LANG=C.UTF-8", "RANK=0"));
}

// RunProcess, the way every process smallfix starts is started, applies it.
TEST(ChildEnvTest, RunProcessWithholdsSecretsUnlessPassed) {
  ::setenv("SMALLFIX_CHILD_ENV_TEST_TOKEN", "value-of-a-token", 1);
  ::setenv("SMALLFIX_CHILD_ENV_TEST_PASSWORD", "value-of-a-password", 1);
  ::setenv("SMALLFIX_CHILD_ENV_TEST_PLAIN", "plain-value", 1);
  ProcessOptions options;
  options.argv = {"env"};
  absl::StatusOr<ProcessResult> withheld = RunProcess(options);
  options.pass_env = {"SMALLFIX_CHILD_ENV_TEST_PASSWORD"};
  absl::StatusOr<ProcessResult> passed = RunProcess(options);
  ::unsetenv("SMALLFIX_CHILD_ENV_TEST_TOKEN");
  ::unsetenv("SMALLFIX_CHILD_ENV_TEST_PASSWORD");
  ::unsetenv("SMALLFIX_CHILD_ENV_TEST_PLAIN");
  ASSERT_TRUE(withheld.ok() && passed.ok());
  EXPECT_THAT(withheld->output, HasSubstr("SMALLFIX_CHILD_ENV_TEST_PLAIN=plain-value"));
  EXPECT_THAT(withheld->output, Not(HasSubstr("value-of-a-token")));
  EXPECT_THAT(withheld->output, Not(HasSubstr("value-of-a-password")));
  EXPECT_THAT(passed->output, HasSubstr("SMALLFIX_CHILD_ENV_TEST_PASSWORD=value-of-a-password"));
  EXPECT_THAT(passed->output, Not(HasSubstr("value-of-a-token")));
}

}  // namespace
}  // namespace smallfix
