// tensor_io.h: float vectors to and from tensors on a device (internal; includes ATen headers).
#pragma once

#include <string>
#include <vector>

#include <ATen/core/Tensor.h>

namespace accord::conformance::live {

/// A 1-D float tensor holding `values`, placed on `device` ("cpu", "cuda:1").
[[nodiscard]] at::Tensor to_tensor(const std::vector<float>& values, const std::string& device);

/// The values of a 1-D float tensor, copied to the host (waits for the device).
[[nodiscard]] std::vector<float> to_vector(const at::Tensor& tensor);

}  // namespace accord::conformance::live
