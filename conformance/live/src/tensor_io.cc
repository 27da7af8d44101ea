// tensor_io.cc: host<->device copies through ATen (no <torch/torch.h>).
#include "tensor_io.h"

#include <algorithm>

#include <ATen/ops/empty.h>

namespace accord::conformance::live {

at::Tensor to_tensor(const std::vector<float>& values, const std::string& device) {
  at::Tensor host = at::empty({static_cast<int64_t>(values.size())}, at::TensorOptions().dtype(at::kFloat));
  std::copy(values.begin(), values.end(), host.data_ptr<float>());
  return host.to(at::Device(device));
}

std::vector<float> to_vector(const at::Tensor& tensor) {
  const at::Tensor host = tensor.to(at::kCPU).contiguous();
  const float* p = host.data_ptr<float>();
  return std::vector<float>(p, p + host.numel());
}

}  // namespace accord::conformance::live
