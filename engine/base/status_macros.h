#ifndef SMALLFIX_ENGINE_BASE_STATUS_MACROS_H_
#define SMALLFIX_ENGINE_BASE_STATUS_MACROS_H_

// Propagating an absl::Status without writing the same three lines at every call. Debian's
// Abseil does not install absl/status/status_macros.h, so the project has its own two.

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

// Returns the status of `expr` (an absl::Status) from the enclosing function when it is an error.
#define SMALLFIX_RETURN_IF_ERROR(expr)                                      \
  do {                                                                      \
    if (::absl::Status smallfix_status_ = (expr); !smallfix_status_.ok()) { \
      return smallfix_status_;                                              \
    }                                                                       \
  } while (false)

#define SMALLFIX_STATUS_CONCAT_INNER_(a, b) a##b
#define SMALLFIX_STATUS_CONCAT_(a, b) SMALLFIX_STATUS_CONCAT_INNER_(a, b)

// `lhs` = the value of `rexpr` (an absl::StatusOr<T>), or returns its status from the
// enclosing function. `lhs` may declare a variable: SMALLFIX_ASSIGN_OR_RETURN(int port,
// FreePort());
#define SMALLFIX_ASSIGN_OR_RETURN(lhs, rexpr) \
  SMALLFIX_ASSIGN_OR_RETURN_IMPL_(SMALLFIX_STATUS_CONCAT_(smallfix_statusor_, __LINE__), lhs, rexpr)

#define SMALLFIX_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, rexpr) \
  auto statusor = (rexpr);                                    \
  if (!statusor.ok()) return std::move(statusor).status();    \
  lhs = *std::move(statusor)

#endif  // SMALLFIX_ENGINE_BASE_STATUS_MACROS_H_
