// Error types. A UserError is the user's to fix (bad input, missing GPU); it is printed
// as one line without a stack of context. Everything else is a bug or a system failure.
#pragma once

#include <stdexcept>
#include <string>

namespace sgemm_tune {

class UserError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The GPU (or its driver) is not there. Commands that need one say so and exit.
class NoGpuError : public UserError {
 public:
  using UserError::UserError;
};

}  // namespace sgemm_tune
