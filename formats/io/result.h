// Errors readers return: each names the file, the field and the byte offset.
#pragma once

#include <cstdint>
#include <exception>
#include <string>
#include <utility>
#include <variant>

#include "formats/io/diagnostics.h"

namespace marrow::formats {

struct FormatError {
  std::string file;
  std::string field;
  std::uint64_t offset = kNoOffset;
  std::string message;

  // One line: "file: field at offset N (0x..): message".
  std::string describe() const;
};

// Thrown by the bounds-checked cursors inside a reader; a reader's entry point catches it and
// returns it as a Result, so nothing outside formats/ ever sees an exception.
class FormatException : public std::exception {
 public:
  explicit FormatException(FormatError e) : error_(std::move(e)), what_(error_.describe()) {}
  const FormatError& error() const { return error_; }
  const char* what() const noexcept override { return what_.c_str(); }

 private:
  FormatError error_;
  std::string what_;
};

template <class T>
class Result {
 public:
  Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
  Result(FormatError error) : v_(std::in_place_index<1>, std::move(error)) {}  // NOLINT

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const FormatError& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, FormatError> v_;
};

}  // namespace marrow::formats
