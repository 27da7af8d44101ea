// catalogue_test.cc: one case per diagnostic code (each must be emitted as expected), and together with
// the plan cases every rule ID of each profile fires at least once.
#include <cctype>
#include <set>

#include "test_util.h"

namespace accord::reference::testing {
namespace {

/// The profiles a case is written for: kBoth the profiles of the 1.6.5 connector (spec, lightning-1.6 and their
/// children), kSpecOnly, kL16Only (lightning-1.6 and its children), kL22Only both 2.2.5 connectors' (Trainer and
/// Fabric), kT22Only the 2.2.5 Trainer's, kF22Only Fabric's, kAll every profile.
enum Which { kBoth, kSpecOnly, kL16Only, kL22Only, kT22Only, kF22Only, kAll };
struct CodeCase { Which profiles; const char* code; const char* json; };

const CodeCase kCodeCases[] = {
    {kBoth, "err_flag_type", R"({"flags": {"benchmark": "yes"}})"},
    {kBoth, "err_value_out_of_range", R"({"flags": {"accelerator": "cpu", "devices": 2000000}})"},
    {kBoth, "err_devices_type", R"({"flags": {"accelerator": "gpu", "devices": true}, "hardware": {"cuda_devices": 2}})"},
    {kBoth, "err_devices_not_int", R"({"flags": {"accelerator": "gpu", "devices": "abc"}, "hardware": {"cuda_devices": 2}})"},
    {kBoth, "err_precision_invalid", R"({"flags": {"precision": 15}})"},
    {kBoth, "err_amp_backend_invalid", R"({"flags": {"amp_backend": null}})"},
    {kSpecOnly, "err_accelerator_unknown", R"({"flags": {"accelerator": "GPU"}})"},
    {kSpecOnly, "err_accelerator_ddp_cpu", R"({"flags": {"accelerator": "ddp_cpu"}})"},
    {kBoth, "err_strategy_unknown", R"({"flags": {"strategy": "Foo"}})"},
    {kBoth, "err_strategy_invalid_type", R"({"flags": {"strategy": 5}})"},
    {kBoth, "err_strategy_ddp_cpu", R"({"flags": {"strategy": "DDP_CPU"}})"},
    {kBoth, "err_strategy_tpu_spawn", R"({"flags": {"strategy": "tpu_spawn"}})"},
    {kBoth, "err_plugin_invalid", R"({"flags": {"plugins": ["foo"]}})"},
    {kBoth, "err_instance_argument", R"({"flags": {"plugins": [{"class": "PrecisionPlugin", "args": {"precision": 32}}]}})"},
    {kBoth, "err_num_nodes_invalid", R"({"flags": {"num_nodes": "abc"}})"},
    {kL16Only, "err_deterministic_invalid", R"({"flags": {"deterministic": "warn"}})"},
    {kBoth, "err_env_invalid", R"({"flags": {"accelerator": "cpu", "devices": 2}, "env": {"SLURM_NTASKS": "08"}})"},
    {kBoth, "err_env_missing", R"({"flags": {"strategy": "ddp", "accelerator": "cpu", "devices": 2}, "env": {"SLURM_NTASKS": "2"}})"},
    {kBoth, "err_devices_zero", R"({"flags": {"devices": 0}})"},
    {kBoth, "err_devices_auto_without_accelerator", R"({"flags": {"devices": "auto"}})"},
    {kBoth, "err_gpus_none_available", R"({"flags": {"accelerator": "gpu", "devices": -2}, "hardware": {"cuda_devices": 2}})"},
    {kBoth, "err_gpu_ids_not_unique", R"({"flags": {"accelerator": "gpu", "devices": [0, 0]}, "hardware": {"cuda_devices": 2}})"},
    {kBoth, "err_device_index_type", R"({"flags": {"accelerator": "gpu", "devices": [true]}, "hardware": {"cuda_devices": 2}})"},
    {kBoth, "err_gpu_ids_unavailable", R"({"flags": {"accelerator": "gpu", "devices": [5]}, "hardware": {"cuda_devices": 2}})"},
    {kL16Only, "err_gpu_devices_none", R"({"flags": {"accelerator": "gpu", "devices": "[]"}, "hardware": {"cuda_devices": 2}})"},
    {kBoth, "err_tpu_cores_invalid", R"({"flags": {"accelerator": "tpu", "devices": 2}, "hardware": {"tpu": true}})"},
    {kBoth, "err_cpu_devices_invalid", R"({"flags": {"accelerator": "cpu", "devices": -1}})"},
    {kBoth, "err_hpu_devices_type", R"({"flags": {"accelerator": "hpu", "devices": [0, 1]}, "hardware": {"hpu": true}})"},
    {kBoth, "err_auto_select_gpus_too_many", R"({"flags": {"auto_select_gpus": true, "accelerator": "gpu", "devices": 3}, "hardware": {"cuda_devices": 2}})"},
    {kBoth, "err_auto_select_gpus_none_free", R"({"flags": {"auto_select_gpus": true, "gpus": 2}, "hardware": {"cuda_devices": 2, "gpu_busy": [0]}})"},
    {kSpecOnly, "err_flag_conflict", R"({"flags": {"devices": 2, "gpus": 2}, "hardware": {"cuda_devices": 2}})"},
    {kBoth, "err_strategy_accelerator_conflict", R"({"flags": {"strategy": "ddp", "accelerator": "dp"}})"},
    {kBoth, "err_strategy_in_plugins", R"({"flags": {"strategy": "ddp", "plugins": ["ddp_spawn"]}})"},
    {kBoth, "err_sync_batchnorm_layer_sync", R"({"flags": {"sync_batchnorm": true, "plugins": ["CustomLayerSync"]}})"},
    {kBoth, "err_plugins_duplicate", R"({"flags": {"plugins": ["SLURMEnvironment", "TorchElasticEnvironment"]}})"},
    {kBoth, "err_strategy_component_twice",
     R"({"flags": {"strategy": {"class": "DDPStrategy", "args": {"cluster_environment": "LightningEnvironment"}}, "plugins": ["SLURMEnvironment"]}})"},
    {kBoth, "err_parallel_devices_conflict",
     R"({"flags": {"strategy": {"class": "DDPStrategy", "args": {"parallel_devices": ["cpu", "cpu"]}}, "accelerator": "gpu"}, )"
       R"("hardware": {"cuda_devices": 2}})"},
    {kBoth, "err_amp_level_without_apex", R"({"flags": {"amp_level": "O2"}})"},
    {kBoth, "err_accelerator_unavailable", R"({"flags": {"accelerator": "gpu"}})"},
    {kL16Only, "err_ddp_cpu_on_tpu", R"({"flags": {"accelerator": "ddp_cpu"}, "hardware": {"tpu": true}})"},
    {kBoth, "err_horovod_num_nodes", R"({"flags": {"strategy": "horovod", "num_nodes": 2}})"},
    {kBoth, "err_package_missing", R"({"flags": {"strategy": "deepspeed"}})"},
    {kBoth, "err_strategy_needs_hardware", R"({"flags": {"strategy": "ipu_strategy"}})"},
    {kBoth, "err_strategy_needs_device", R"({"flags": {"strategy": "single_tpu"}})"},
    {kSpecOnly, "err_strategy_needs_gpu", R"({"flags": {"strategy": "dp", "accelerator": "cpu"}})"},
    {kBoth, "err_accelerator_strategy_mismatch", R"({"flags": {"accelerator": "tpu", "strategy": "ddp"}, "hardware": {"tpu": true}})"},
    {kBoth, "err_interactive_incompatible", R"({"flags": {"strategy": "ddp", "accelerator": "cpu", "devices": 2}, "interactive": true})"},
    {kBoth, "err_tpu_precision_64", R"({"flags": {"accelerator": "tpu", "precision": 64}, "hardware": {"tpu": true}})"},
    {kBoth, "err_tpu_precision_plugin", R"({"flags": {"accelerator": "tpu", "plugins": ["NativeMixedPrecisionPlugin"]}, "hardware": {"tpu": true}})"},
    {kBoth, "err_hpu_precision", R"({"flags": {"accelerator": "hpu", "precision": 64}, "hardware": {"hpu": true}})"},
    {kBoth, "err_ipu_precision", R"({"flags": {"accelerator": "ipu", "precision": 64}, "hardware": {"ipu": true}})"},
    {kBoth, "err_apex_on_cpu", R"({"flags": {"precision": 16, "amp_backend": "apex"}})"},
    {kBoth, "err_bf16_requires_native", R"({"flags": {"precision": "bf16", "amp_backend": "apex"}})"},
    {kBoth, "err_sharded_apex",
     R"({"flags": {"strategy": "ddp_sharded", "precision": 16, "amp_backend": "apex", "accelerator": "gpu", "devices": 2}, "hardware": {"cuda_devices": 2}})"},
    {kL16Only, "err_precision_unset", R"({"flags": {"precision": "16"}})"},
    {kBoth, "warn_benchmark_with_deterministic", R"({"flags": {"deterministic": true, "benchmark": true}})"},
    {kBoth, "dep_accelerator_strategy", R"({"flags": {"accelerator": "ddp_spawn"}})"},
    {kBoth, "dep_plugins_strategy", R"({"flags": {"plugins": ["ddp_spawn"]}})"},
    {kL16Only, "warn_devices_ignored_legacy", R"({"flags": {"devices": 2, "gpus": 1}, "hardware": {"cuda_devices": 2}})"},
    {kL16Only, "warn_multiple_legacy_flags", R"({"flags": {"gpus": 1, "tpu_cores": 0}, "hardware": {"cuda_devices": 2}})"},
    {kL16Only, "warn_ddp_cpu_gpu_ignored", R"({"flags": {"accelerator": "ddp_cpu", "gpus": 2}, "hardware": {"cuda_devices": 2}})"},
    {kL16Only, "warn_strategy_cpu_fallback", R"({"flags": {"strategy": "dp"}})"},
    {kSpecOnly, "warn_strategy_cluster_fallback",
     R"({"flags": {"strategy": "ddp_spawn", "accelerator": "cpu", "devices": 2}, "env": {"TORCHELASTIC_RUN_ID": "1", "RANK": "0", "LOCAL_RANK": "0", )"
       R"("WORLD_SIZE": "2", "GROUP_RANK": "0"}})"},
    {kBoth, "warn_tpu_precision_16", R"({"flags": {"accelerator": "tpu", "precision": 16}, "hardware": {"tpu": true}})"},
    {kBoth, "warn_cpu_precision_16", R"({"flags": {"precision": 16}})"},
    {kSpecOnly, "warn_slurm_not_managing", R"({"env": {"SLURM_NTASKS": "4"}})"},
    {kBoth, "info_slurm_managing", R"({"env": {"SLURM_NTASKS": "1", "SLURM_PROCID": "0", "SLURM_LOCALID": "0", "SLURM_NODEID": "0"}})"},
    {kBoth, "info_amp", R"({"flags": {"precision": 16, "accelerator": "gpu"}, "hardware": {"cuda_devices": 1}})"},
    {kBoth, "info_auto_select_gpus", R"({"flags": {"auto_select_gpus": true, "accelerator": "gpu", "devices": 1}, "hardware": {"cuda_devices": 2}})"},
    {kBoth, "err_unexpected_keyword", R"({"flags": {"use_distributed_sampler": true}})"},
    // The 2.2.5 connector (lightning-2.2), in its vocabulary.
    {kL22Only, "err_unexpected_keyword", R"({"flags": {"gpus": 2}})"},
    {kT22Only, "err_flag_type", R"({"flags": {"benchmark": "yes"}})"},
    {kL22Only, "err_value_out_of_range", R"({"flags": {"num_nodes": 4294967296}})"},
    {kL22Only, "err_devices_type", R"({"flags": {"accelerator": "cuda", "devices": true}, "hardware": {"cuda_devices": 2}})"},
    {kL22Only, "err_devices_not_int", R"({"flags": {"accelerator": "cuda", "devices": "abc"}, "hardware": {"cuda_devices": 2}})"},
    {kL22Only, "err_precision_invalid", R"({"flags": {"precision": "mixed"}})"},
    {kL22Only, "warn_precision_alias", R"({"flags": {"precision": 16, "accelerator": "cuda"}, "hardware": {"cuda_devices": 1}})"},
    {kL22Only, "err_accelerator_unknown", R"({"flags": {"accelerator": "GPU"}})"},
    {kL22Only, "err_strategy_unknown", R"({"flags": {"strategy": "ddp2"}})"},
    {kL22Only, "err_strategy_invalid_type", R"({"flags": {"strategy": null}})"},
    {kL22Only, "err_strategy_mps_unsupported", R"({"flags": {"strategy": "ddp"}, "hardware": {"mps": true}})"},
    {kT22Only, "err_package_missing", R"({"flags": {"strategy": "bagua"}})"},
    {kL22Only, "err_class_moved", R"({"flags": {"accelerator": {"class": "HPUAccelerator"}}})"},
    {kL22Only, "err_plugin_invalid", R"({"flags": {"plugins": ["foo"]}})"},
    {kL22Only, "err_instance_argument", R"({"flags": {"plugins": [{"class": "Precision", "args": {"precision": "32-true"}}]}})"},
    {kT22Only, "err_sync_batchnorm_layer_sync", R"({"flags": {"sync_batchnorm": true, "plugins": ["CustomLayerSync"]}})"},
    {kL22Only, "err_plugins_duplicate", R"({"flags": {"plugins": ["SLURMEnvironment", "TorchElasticEnvironment"]}})"},
    {kL22Only, "err_flag_conflict", R"({"flags": {"precision": "64-true", "plugins": ["DoublePrecision"]}})"},
    {kT22Only, "err_strategy_component_twice",
     R"({"flags": {"strategy": {"class": "DDPStrategy", "args": {"precision_plugin": "Precision"}}, "plugins": ["DoublePrecision"]}})"},
    {kF22Only, "err_strategy_component_twice",
     R"({"flags": {"strategy": {"class": "DDPStrategy", "args": {"precision": "Precision"}}, "plugins": ["DoublePrecision"]}})"},
    {kL22Only, "err_parallel_devices_conflict",
     R"({"flags": {"strategy": {"class": "DDPStrategy", "args": {"parallel_devices": ["cpu", "cpu"]}}, "accelerator": "cuda"}, )"
       R"("hardware": {"cuda_devices": 2}})"},
    {kT22Only, "err_num_nodes_invalid", R"({"flags": {"num_nodes": "2"}})"},
    {kL22Only, "err_devices_zero", R"({"flags": {"devices": 0}})"},
    {kL22Only, "err_accelerator_unavailable", R"({"flags": {"accelerator": "gpu"}})"},
    {kL22Only, "err_gpus_none_available", R"({"flags": {"accelerator": "cuda", "devices": -2}, "hardware": {"cuda_devices": 2}})"},
    {kL22Only, "err_gpu_ids_not_unique", R"({"flags": {"accelerator": "cuda", "devices": [0, 0]}, "hardware": {"cuda_devices": 2}})"},
    {kL22Only, "err_gpu_ids_unavailable", R"({"flags": {"accelerator": "cuda", "devices": [5]}, "hardware": {"cuda_devices": 2}})"},
    {kL22Only, "err_gpu_devices_none", R"({"flags": {"accelerator": "cuda", "devices": "[]"}, "hardware": {"cuda_devices": 2}})"},
    {kL22Only, "err_tpu_cores_invalid", R"({"flags": {"accelerator": "tpu", "devices": 2}, "hardware": {"tpu": true}})"},
    {kL22Only, "err_cpu_devices_invalid", R"({"flags": {"accelerator": "cpu", "devices": -1}})"},
    {kL22Only, "err_env_invalid", R"({"flags": {"accelerator": "cpu", "devices": 2}, "env": {"SLURM_NTASKS": "x"}})"},
    {kL22Only, "err_env_missing", R"({"flags": {"strategy": "ddp", "accelerator": "cpu", "devices": 2}, "env": {"TORCHELASTIC_RUN_ID": "1"}})"},
    {kL22Only, "err_slurm_ntasks_unsupported", R"({"flags": {"accelerator": "cpu", "devices": 2}, "env": {"SLURM_NTASKS": "2"}})"},
    {kL22Only, "err_strategy_needs_gpu", R"({"flags": {"strategy": "fsdp", "accelerator": "cpu"}})"},
    {kL22Only, "err_fork_unsupported", R"({"flags": {"strategy": "ddp_fork", "accelerator": "cpu", "devices": 2}, "hardware": {"fork": false}})"},
    {kL22Only, "err_start_method_unavailable",
     R"({"flags": {"strategy": {"class": "DDPStrategy", "args": {"start_method": "fork"}}, "accelerator": "cpu", "devices": 2}, )"
       R"("hardware": {"fork": false}})"},
    {kL22Only, "err_strategy_needs_device", R"({"flags": {"strategy": "single_xla"}, "hardware": {"tpu": true}})"},
    {kL22Only, "dep_strategy_renamed", R"({"flags": {"strategy": "single_tpu"}, "hardware": {"tpu": true}})"},
    {kL22Only, "err_accelerator_strategy_mismatch", R"({"flags": {"accelerator": "tpu", "strategy": "ddp"}, "hardware": {"tpu": true}})"},
    {kL22Only, "err_strategy_plugin_mismatch", R"({"flags": {"accelerator": "tpu", "plugins": ["DoublePrecision"]}, "hardware": {"tpu": true}})"},
    {kF22Only, "err_checkpoint_io_unsupported",
     R"({"flags": {"strategy": "fsdp", "plugins": ["TorchCheckpointIO"]}, "hardware": {"cuda_devices": 2}})"},
    {kL22Only, "err_precision_unsupported", R"({"flags": {"accelerator": "tpu", "precision": "16-mixed"}, "hardware": {"tpu": true}})"},
    {kL22Only, "err_bitsandbytes_needs_cuda", R"({"flags": {"plugins": ["BitsandbytesPrecision"]}, "hardware": {"packages": ["bitsandbytes"]}})"},
    {kL22Only, "err_interactive_incompatible", R"({"flags": {"strategy": "ddp", "accelerator": "cpu", "devices": 2}, "interactive": true})"},
    {kL22Only, "err_precision_unset", R"({"flags": {"precision": 16.0}})"},
    {kT22Only, "warn_benchmark_with_deterministic", R"({"flags": {"deterministic": true, "benchmark": true}})"},
    {kL22Only, "warn_cpu_precision_16", R"({"flags": {"precision": "16-mixed"}})"},
    {kL22Only, "info_amp", R"({"flags": {"precision": "bf16-mixed", "accelerator": "cuda"}, "hardware": {"cuda_devices": 1}})"},
    {kL22Only, "info_interactive_single_gpu", R"({"flags": {}, "hardware": {"cuda_devices": 2}, "interactive": true})"},
    {kF22Only, "err_num_nodes_invalid", R"({"flags": {"num_nodes": "0"}})"},
    {kF22Only, "err_not_int", R"({"flags": {"accelerator": "cpu"}, "env": {"LT_NUM_NODES": "two"}})"},
    {kF22Only, "err_not_int", R"({"flags": {"accelerator": "cpu"}, "env": {"LT_ACCELERATOR": "cuda", "LT_CLI_USED": "yes"}})"},
    {kF22Only, "err_cli_conflict", R"({"flags": {"accelerator": "cpu"}, "env": {"LT_ACCELERATOR": "cuda", "LT_CLI_USED": "1"}})"},
    {kF22Only, "err_not_int", R"({"flags": {"accelerator": "cpu"}, "env": {"LT_CLI_USED": ""}})"},
    {kF22Only, "warn_strategy_cpu_fallback", R"({"flags": {"strategy": "dp", "accelerator": "cpu", "devices": 2}})"},
};

// Plans that exercise the rules no error case reaches.
const char* kPlanCases[] = {
    R"({"flags": {"strategy": {"class": "DDPStrategy", "args": {"accelerator": "GPU"}}}, "hardware": {"cuda_devices": 2}})",  // strategy's accelerator string
    R"({"flags": {"strategy": {"class": "DDPStrategy", "args": {"accelerator": "auto"}}}})",
    R"({"flags": {}, "env": {"PL_TRAINER_DEVICES": "2", "PL_TRAINER_ACCELERATOR": "cpu"}})",
    R"({"flags": {"strategy": "ddp", "accelerator": "cpu", "devices": 2, "precision": 16}, "env": {"RANK": "1"}})",
    R"({"flags": {"accelerator": "auto"}, "hardware": {"tpu": true}})",
    R"({"flags": {"accelerator": "auto"}, "hardware": {"ipu": true}})",
    R"({"flags": {"accelerator": "auto", "devices": 2}, "hardware": {"hpu": true}})",
    R"({"flags": {"accelerator": "hpu", "devices": 1}, "hardware": {"hpu": true}})",
    R"({"flags": {"accelerator": "auto"}, "hardware": {"cuda_devices": 2}})",
    R"({"flags": {"accelerator": "auto"}})",
    R"({"flags": {"accelerator": "tpu", "devices": 1, "precision": "bf16"}, "hardware": {"tpu": true}})",
    R"({"flags": {"accelerator": "tpu", "devices": "8"}, "hardware": {"tpu": true}})",
    R"({"flags": {"accelerator": "ipu", "devices": 2, "precision": 16}, "hardware": {"ipu": true}})",
    R"({"flags": {"strategy": {"class": "IPUStrategy"}}, "hardware": {"ipu": true}})",
    R"({"flags": {"strategy": "horovod"}, "hardware": {"packages": ["horovod"]}, "env": {"OMPI_COMM_WORLD_LOCAL_SIZE": "2"}})",
    R"({"flags": {"deterministic": true}, "env": {"HOROVOD_RANK": "0"}, "hardware": {"packages": ["horovod"]}})",
    R"({"flags": {"num_nodes": 2, "accelerator": "cpu"}})",
    R"({"flags": {"accelerator": "cpu", "devices": 2, "plugins": "LightningEnvironment"}})",
    R"({"flags": {"deterministic": "warn"}})",
    R"({"flags": {"strategy": "ddp", "accelerator": "DDPStrategy"}})",
    R"({"flags": {"strategy": {"class": "DDPStrategy", "args": {"accelerator": "GPUAccelerator"}}, "accelerator": "gpu"}, "hardware": {"cuda_devices": 1}})",
    R"({"flags": {"strategy": {"class": "DDPStrategy", "args": {"precision_plugin": "PrecisionPlugin"}}, "plugins": ["DoublePrecisionPlugin"]}})",
    R"({"flags": {"strategy": {"class": "DDPStrategy", "args": {"checkpoint_io": "TorchCheckpointIO"}}, "plugins": ["TorchCheckpointIO"]}})",
    R"({"flags": {"strategy": {"class": "DDPStrategy", "args": {"parallel_devices": ["cuda:0", "cuda:1"]}}}, "hardware": {"cuda_devices": 2}})",
    R"({"flags": {"accelerator": "gpu", "devices": "[]"}, "hardware": {"cuda_devices": 2}})",
    R"({"flags": {"accelerator": "cpu"}, "env": {"PL_TRAINER_DEVICES": "2", "SLURM_PROCID": "1"}})",
    R"({"flags": {"strategy": "DeepSpeedStrategy"}})",
    R"({"flags": {"precision": 16}, "env": {"LOCAL_RANK": "1"}})",
    R"({"flags": {"accelerator": "cpu", "devices": 2}, "env": {"BAGUA_SERVICE_PORT": "1"}})",
    R"({"flags": {"accelerator": "cpu", "devices": 2}, "env": {"KUBERNETES_PORT": "1", "MASTER_ADDR": "a", "MASTER_PORT": "1", "WORLD_SIZE": "2", )"
      R"("RANK": "1"}})",
    R"({"flags": {"accelerator": "cpu", "devices": 2}, "env": {"LSB_JOBID": "1", "LSB_DJOB_RANKFILE": "f", "JSM_NAMESPACE_LOCAL_RANK": "0", )"
      R"("JSM_NAMESPACE_SIZE": "2", "JSM_NAMESPACE_RANK": "0"}})",
    R"({"flags": {"strategy": "ddp_spawn", "accelerator": "cpu", "devices": 2}, "env": {"SLURM_NTASKS": "2", "SLURM_JOB_NAME": "job", )"
      R"("SLURM_PROCID": "0", "SLURM_LOCALID": "0", "SLURM_NODEID": "0"}})",
    R"({"flags": {"strategy": "ddp_spawn", "accelerator": "cpu", "devices": 2}, "env": {"SLURM_NTASKS": "2", "SLURM_JOB_NAME": "bash"}})",
    R"({"flags": {"accelerator": "gpu", "devices": 2, "strategy": "ddp_sharded", "precision": 16}, "hardware": {"cuda_devices": 2, )"
      R"("packages": ["fairscale"]}})",
    R"({"flags": {"accelerator": "gpu", "devices": 2, "strategy": "fsdp", "precision": "bf16"}, "hardware": {"cuda_devices": 2, "packages": ["fairscale"]}})",
    R"({"flags": {"accelerator": "gpu", "devices": 1, "precision": 16, "amp_backend": "APEX", "amp_level": "O1"}, "hardware": {"cuda_devices": 1, )"
      R"("packages": ["apex"]}})",
    R"({"flags": {"strategy": "deepspeed_stage_2", "accelerator": "gpu", "devices": 2, "precision": 16}, "hardware": {"cuda_devices": 2, )"
      R"("packages": ["deepspeed"]}})",
    R"({"flags": {"precision": 64, "benchmark": false}})",
    R"({"flags": {"precision": "16-true"}})",
    R"({"flags": {"plugins": ["DoublePrecisionPlugin", "TorchCheckpointIO", "NativeSyncBatchNorm"], "accelerator": "cpu", "devices": 2}})",
    R"({"flags": {"sync_batchnorm": true, "accelerator": "cpu", "devices": 2, "strategy": {"class": "DDPStrategy", )"
      R"("args": {"precision_plugin": "PrecisionPlugin", "checkpoint_io": "TorchCheckpointIO"}}}})",
    R"({"flags": {"strategy": {"class": "DDPStrategy", "args": {"parallel_devices": ["cuda:0", "cuda:1"], "accelerator": "GPUAccelerator"}}}, )"
      R"("hardware": {"cuda_devices": 2}})",
    R"({"flags": {"num_processes": 2, "accelerator": "cpu"}})",
    R"({"flags": {"gpus": "0,1"}, "hardware": {"cuda_devices": 2}})",
    R"({"flags": {"tpu_cores": [5]}, "hardware": {"tpu": true}})",
    R"({"flags": {"ipus": 2}, "hardware": {"ipu": true}})",
    R"({"flags": {"accelerator": "gpu", "devices": [0, 1]}, "env": {"TORCHELASTIC_RUN_ID": "x", "RANK": "0", "LOCAL_RANK": "0", "WORLD_SIZE": "2", )"
      R"("GROUP_RANK": "0"}, "hardware": {"cuda_devices": 1}})",
    R"({"flags": {"strategy": "dp", "accelerator": "gpu", "devices": 2}, "hardware": {"cuda_devices": 2}, "interactive": true})",
    R"({"flags": {"accelerator": "tpu", "devices": 8}, "hardware": {"tpu": true}, "interactive": true})",
    R"({"flags": {"accelerator": "hpu", "devices": 2, "strategy": "ddp"}, "hardware": {"hpu": true}})",
    R"({"flags": {"strategy": {"class": "IPUStrategy"}, "accelerator": "cpu"}, "hardware": {"ipu": true}})",
    R"({"flags": {"accelerator": "gpu", "strategy": "ddp2", "devices": 2}, "hardware": {"cuda_devices": 2}})",
    R"({"flags": {"strategy": "ddp_spawn", "accelerator": "cpu", "devices": 2}, "env": {"TORCHELASTIC_RUN_ID": "1", "RANK": "0", "LOCAL_RANK": "0", )"
      R"("WORLD_SIZE": "2", "GROUP_RANK": "0"}})",
    R"({"flags": {"strategy": "ddp_spawn", "accelerator": "cpu", "devices": 2}, "env": {"KUBERNETES_PORT": "1", "MASTER_ADDR": "a", )"
      R"("MASTER_PORT": "1", "WORLD_SIZE": "2", "RANK": "0"}})",
    R"({"flags": {"accelerator": "ddp_cpu", "devices": 1, "num_nodes": 2}})",
    R"({"flags": {"accelerator": "GPU"}})",
    R"({"flags": {"amp_backend": "bogus"}})",
    R"({"flags": {"num_nodes": 0}})",
    R"({"flags": {"strategy": "ddp", "accelerator": "ddp", "devices": 2}})",
    R"({"flags": {"precision": 16, "plugins": ["NativeMixedPrecisionPlugin"], "accelerator": "gpu"}, "hardware": {"cuda_devices": 1}})",
    R"({"flags": {"gpus": 2, "accelerator": "cpu"}, "hardware": {"cuda_devices": 2}})",
    R"({"flags": {"sync_batchnorm": true, "plugins": ["NativeSyncBatchNorm"]}})",
    R"({"flags": {"strategy": {"class": "DDPStrategy"}, "accelerator": "cpu", "devices": 2}, "env": {"LOCAL_RANK": "1", "NODE_RANK": "1"}})",
    // lightning-2.2 plans (2.x vocabulary; in a 1.6 profile they are errors or other plans)
    R"({"flags": {}, "hardware": {"mps": true}})",
    R"({"flags": {"accelerator": "mps", "devices": "auto", "deterministic": "warn"}, "hardware": {"mps": true}})",
    R"({"flags": {"accelerator": "cuda", "devices": 2, "precision": "16-true", "sync_batchnorm": true}, "hardware": {"cuda_devices": 2}})",
    R"({"flags": {"accelerator": "cpu", "devices": 2}, "interactive": true})",
    R"({"flags": {"accelerator": "cpu", "devices": 2, "num_nodes": 2, "precision": "64-true"}, "env": {"PL_TRAINER_BENCHMARK": "True"}})",
    R"({"flags": {"accelerator": "cpu", "devices": 2, "strategy": "DDP_Spawn"}, "env": {"RANK": "1"}})",
    R"({"flags": {"accelerator": "cpu", "devices": 2, "plugins": "MPIEnvironment"}, "hardware": {"packages": ["mpi4py"]}})",
    R"({"flags": {"accelerator": "cpu", "devices": 2}, "env": {"OMPI_COMM_WORLD_SIZE": "2"}, "hardware": {"packages": ["mpi4py"]}})",
    R"({"flags": {"accelerator": "cpu", "devices": 2}, "env": {"LSB_JOBID": "1", "LSB_DJOB_RANKFILE": "", "JSM_NAMESPACE_LOCAL_RANK": "0", )"
      R"("JSM_NAMESPACE_SIZE": "2", "JSM_NAMESPACE_RANK": "0"}})",
    R"({"flags": {"accelerator": "cpu", "devices": 2}, "env": {"SLURM_NTASKS": "2", "SLURM_NTASKS_PER_NODE": "2", "SLURM_PROCID": "0", )"
      R"("SLURM_LOCALID": "0", "SLURM_NODEID": "0", "SLURM_JOB_NAME": "train"}})",
    R"({"flags": {"accelerator": "cuda", "devices": [0, 1]}, "env": {"TORCHELASTIC_RUN_ID": "x", "RANK": "0", "LOCAL_RANK": "0", "WORLD_SIZE": "2", )"
      R"("GROUP_RANK": "0"}, "hardware": {"cuda_devices": 1}})",
    R"({"flags": {"strategy": "fsdp", "accelerator": "cuda", "devices": 2, "precision": "bf16-mixed"}, "env": {"SLURM_NTASKS": "2", )"
      R"("SLURM_NTASKS_PER_NODE": "2", "SLURM_PROCID": "0", "SLURM_LOCALID": "0", "SLURM_NODEID": "0"}, "hardware": {"cuda_devices": 2}})",
    R"({"flags": {"strategy": "deepspeed_stage_2", "accelerator": "cuda", "devices": 2, "precision": "16-mixed"}, )"
      R"("hardware": {"cuda_devices": 2, "packages": ["deepspeed"]}})",
    R"({"flags": {"precision": "transformer-engine", "accelerator": "cuda"}, "hardware": {"cuda_devices": 1, "packages": ["transformer_engine"]}})",
    R"({"flags": {"plugins": ["BitsandbytesPrecision"], "accelerator": "cuda"}, "hardware": {"cuda_devices": 1, "packages": ["bitsandbytes"]}})",
    R"({"flags": {"accelerator": "tpu", "devices": [3], "precision": "bf16-true"}, "hardware": {"tpu": true}})",
    R"({"flags": {"strategy": {"class": "DDPStrategy", "args": {"accelerator": "CUDAAccelerator", "precision_plugin": "Precision", )"
      R"("checkpoint_io": "TorchCheckpointIO", "cluster_environment": "LightningEnvironment", "parallel_devices": ["cuda:0", "cuda:1"]}}}, )"
      R"("hardware": {"cuda_devices": 2}})",
    R"({"flags": {"strategy": {"class": "DDPStrategy", "args": {"parallel_devices": ["cpu", "cpu"]}}}})",
    R"({"flags": {"strategy": {"class": "DDPStrategy", "args": {"accelerator": "cpu"}}}})",
    R"({"flags": {"accelerator": "CPUAccelerator", "devices": 1, "precision": "16-mixed", "plugins": ["TorchSyncBatchNorm", "AsyncCheckpointIO"]}})",
    R"({"flags": {"strategy": {"class": "DDPStrategy", "args": {"cluster_environment": "LightningEnvironment"}}, "plugins": ["SLURMEnvironment"]}})",
    R"({"flags": {"strategy": "fsdp"}, "hardware": {"tpu": true, "packages": ["torch_xla"]}})",  // Fabric: xla_fsdp
    R"({"flags": {}, "env": {"LT_DEVICES": "2", "LT_ACCELERATOR": "cpu", "LT_STRATEGY": "dp"}})",  // Fabric: dp on CPU -> ddp
};

bool applies(Which w, Profile p) {
  bool release16 = policy(p).connector_release == ConnectorRelease::kLightning16;
  switch (w) {
    case kAll: return true;
    case kBoth: return release16;
    case kSpecOnly: return p == Profile::kSpec;
    case kL16Only: return release16 && p != Profile::kSpec;
    case kL22Only: return !release16;
    case kT22Only: return policy(p).connector_release == ConnectorRelease::kLightning22;
    case kF22Only: return policy(p).connector_release == ConnectorRelease::kFabric22;
  }
  return false;
}

bool emitted(const Outcome& o, const std::string& code) {
  if (!o.ok() && wire_id(o.error().code) == code) return true;
  for (const auto& n : o.notes)
    if (wire_id(n.code) == code) return true;
  return false;
}

class Catalogue : public ::testing::TestWithParam<Profile> {};

TEST_P(Catalogue, EveryCodeCaseEmitsItsCode) {
  for (const auto& cc : kCodeCases) {
    if (!applies(cc.profiles, GetParam())) continue;
    Outcome o = run(cc.json, GetParam());
    EXPECT_TRUE(emitted(o, cc.code)) << cc.code << " for " << cc.json << "\n" << outcome_to_json(o).dump();
    if (!o.ok()) {
      EXPECT_EQ(std::string(wire_id(o.error().code)).rfind("err_", 0), 0u);
    }
  }
}

TEST_P(Catalogue, EveryCodeHasACase) {
  std::set<std::string> listed;
  for (const auto& cc : kCodeCases) listed.insert(cc.code);
  for (int k = 0; k < diag_count(); ++k) EXPECT_TRUE(listed.count(wire_id(static_cast<DiagCode>(k)))) << wire_id(static_cast<DiagCode>(k));
}

TEST_P(Catalogue, EveryRuleOfTheProfileFires) {
  Profile p = GetParam();
  std::set<RuleId> fired;
  auto collect = [&](const char* json) {
    for (auto r : run(json, p).trace) fired.insert(r);
  };
  for (const auto& cc : kCodeCases)
    if (applies(cc.profiles, p)) collect(cc.json);
  for (const char* json : kPlanCases) collect(json);
  for (int k = 0; k < rule_count(); ++k) {
    auto r = static_cast<RuleId>(k);
    bool in_profile = rule_in_profile(r, p);
    EXPECT_EQ(fired.count(r) == 1, in_profile) << rule_wire(r) << (in_profile ? " never fired in " : " fired outside its profile ")
                                               << profile_name(p);
  }
}

// Every profile of the table: a new profile runs the cases written for every profile (kBoth) and must add its own
// cases for the rules and codes only it has.
std::vector<Profile> every_profile() {
  std::vector<Profile> out;
  for (const auto& p : profiles()) out.push_back(p.profile);
  return out;
}
std::string param_name(const ::testing::TestParamInfo<Profile>& p) {
  std::string name = profile_name(p.param);
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}
INSTANTIATE_TEST_SUITE_P(Profiles, Catalogue, ::testing::ValuesIn(every_profile()), param_name);

}  // namespace
}  // namespace accord::reference::testing
