"""Tests of the Lightning adapter: /usr/bin/python3 -m unittest test_adapter (from this folder).

Tests that need Lightning skip cleanly when ACCORD_LIGHTNING_ROOT is unset or Lightning cannot be imported.
"""
import json
import os
import re
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("ACCORD_LIGHTNING_ROOT")
DIAGNOSTICS_DEF = os.path.join(HERE, "..", "..", "..", "reference", "tables", "diagnostics.def")
sys.dont_write_bytecode = True  # keep the source folder clean
sys.path.insert(0, HERE)
import codes  # noqa: E402

# codes codes.py maps to that reference/tables/diagnostics.def may not list yet (added with the fabric-2.2 profile)
PENDING_CODES = {"err_cli_conflict", "err_not_int"}


def run_adapter(major, requests, connector=None):
    """Replies of one adapter session to the given requests (start and stop are added)."""
    lines = [{"cmd": "start", "protocol": 1}] + requests + [{"cmd": "stop"}]
    text = "\n".join(r if isinstance(r, str) else json.dumps(r) for r in lines) + "\n"
    argv = [sys.executable, os.path.join(HERE, "adapter.py"), "--lightning", major]
    if connector:
        argv += ["--connector", connector]
    proc = subprocess.run(argv, input=text, capture_output=True, text=True, timeout=300, env=dict(os.environ))
    if proc.returncode != 0:
        raise AssertionError(f"adapter exited {proc.returncode}: {proc.stderr[-2000:]}")
    return [json.loads(line) for line in proc.stdout.splitlines()]


def resolve(i, case):
    return {"cmd": "resolve", "id": str(i), "profile": "lightning-1.6", "case": case}


DDP_CPU_2 = {"flags": {"strategy": "ddp", "accelerator": "cpu", "devices": 2}}


class CodesTable(unittest.TestCase):
    def catalogue(self):
        if not os.path.exists(DIAGNOSTICS_DEF):
            self.skipTest("reference/tables/diagnostics.def not found")
        with open(DIAGNOSTICS_DEF, encoding="utf-8") as f:
            return set(re.findall(r'^ACCORD_DIAG\(\w+,\s*"(\w+)"', f.read(), re.M))

    def test_codes_exist_in_catalogue(self):
        self.assertEqual(set(), codes.codes() - self.catalogue() - PENDING_CODES,
                         "codes.py names codes that diagnostics.def lacks")

    def test_fabric_messages(self):  # Lightning Fabric 2.2.5's texts map to the codes of the Trainer's texts
        cases = [
            ("`Fabric(devices=0)` value is not a valid input using auto accelerator.", "ValueError", (),
             ("err_devices_zero", {"devices": "0", "accelerator": "auto"})),
            ("Fabric.__init__() got an unexpected keyword argument 'gpus'", "TypeError", (),
             ("err_unexpected_keyword", {"owner": "Fabric", "flag": "gpus"})),
            ("Your code has `Fabric(accelerator='cuda', ...)` but it conflicts with the value `--accelerator=cpu` set "
             "through the CLI.  Remove it either from the CLI or from the Lightning Fabric object.", "ValueError", (),
             ("err_cli_conflict", {"flag": "accelerator", "value": "'cuda'", "env_value": "cpu"})),
            ("invalid literal for int() with base 10: 'abc'", "ValueError", ("__init__", "_Connector.__init__"),
             ("err_not_int", {"flag": "num_nodes"})),
            ("int() argument must be a string, a bytes-like object or a real number, not 'NoneType'", "TypeError",
             ("__init__", "_Connector.__init__"), ("err_not_int", {"flag": "num_nodes"})),
            ("invalid literal for int() with base 10: 'yes'", "ValueError", ("_is_using_cli", "_is_using_cli"),
             ("err_not_int", {"flag": "LT_CLI_USED"})),
            ("You selected the FSDP strategy but FSDP is only available on GPU. Set `Fabric(accelerator='gpu', ...)` "
             "to continue or select a different strategy.", "ValueError", (),
             ("err_strategy_needs_gpu", {"strategy": "fsdp"})),
            ("The `XLAAccelerator` can only be used with a `SingleDeviceXLAStrategy`, `XLAStrategy`, or "
             "`XLAFSDPStrategy`. Found DDPStrategy.", "ValueError", (),
             ("err_accelerator_strategy_mismatch", {"accelerator_class": "XLAAccelerator", "allowed": "a "
              "`SingleDeviceXLAStrategy`, `XLAStrategy`, or `XLAFSDPStrategy`", "strategy_class": "DDPStrategy"})),
            ("`CUDAAccelerator` can not run on your system since the accelerator is not available. The following "
             "accelerator(s) is available and can be passed into `accelerator` argument of `Fabric`: ['cpu'].",
             "RuntimeError", (), ("err_accelerator_unavailable", {"accelerator_class": "CUDAAccelerator",
                                                                  "available": "['cpu']"})),
            ("You selected `Fabric(strategy='ddp_fork')` but process forking is not supported on this platform. We "
             "recommed `Fabric(strategy='ddp_spawn')` instead.", "ValueError", (),
             ("err_fork_unsupported", {"strategy": "'ddp_fork'"})),
            ("`Fabric(strategy='ddp')` is not compatible with an interactive environment. Run your code as a script, "
             "or choose one of the compatible strategies: `Fabric(strategy='dp'|'ddp_notebook')`.", "RuntimeError",
             (), ("err_interactive_incompatible", {"strategy": "'ddp'"})),
            ("Found invalid type for plugin ddp. Expected one of: Precision, CheckpointIO, ClusterEnviroment.",
             "TypeError", (), ("err_plugin_invalid", {"plugin": "ddp"})),
        ]
        for msg, exc, where, expected in cases:
            self.assertEqual(expected, codes.classify(msg, "x", exc, where), msg)
        notes = [("You passed `Fabric(accelerator='cpu', precision='16-mixed')` but AMP with fp16 is not supported on "
                  "CPU. Using `precision='bf16-mixed'` instead.", ("warn_cpu_precision_16", {})),
                 ("Fabric will use only 1 of 4 GPUs because it is running inside an interactive / notebook environment.",
                  ("info_interactive_single_gpu", {"count": "4"})),
                 ("Using 16-bit Automatic Mixed Precision (AMP)", ("info_amp", {"kind": "16-bit"}))]
        for msg, expected in notes:
            self.assertEqual(expected, codes.classify(msg, "x"), msg)
        # the Trainer's int() failures elsewhere keep their codes
        self.assertEqual("err_env_invalid", codes.classify("invalid literal for int() with base 10: 'x'", "x",
                                                           "ValueError", ("__init__",))[0])

    def test_unexpected_trainer_keyword(self):
        self.assertEqual(("err_unexpected_keyword", {"owner": "Trainer", "flag": "gpus"}),
                         codes.classify("Trainer.__init__() got an unexpected keyword argument 'gpus'", "x", "TypeError"))
        import adapter  # stdlib only until a session starts

        with self.assertRaisesRegex(TypeError, r"^Trainer\.__init__\(\) got an unexpected keyword argument 'ipus'$"):
            adapter.check_trainer_keywords({"devices": 1, "ipus": 1, "gpus": 1}, ["devices", "gpus"])
        adapter.check_trainer_keywords({"devices": 1}, ["devices", "gpus"])

    def test_object_reprs_in_fields_are_class_calls(self):
        msg = ("You set `strategy=<lightning.pytorch.strategies.ddp.DDPStrategy object at 0x7f31c2d0>` but strategies"
               " from the DDP family are not supported on the MPS accelerator. Either explicitly set `accelerator='cpu'`")
        code, fields = codes.classify(msg, "x")
        self.assertEqual(("err_strategy_mps_unsupported", {"strategy": "DDPStrategy()"}),
                         (code, codes.without_addresses(fields)))

    def test_classify(self):
        self.assertEqual(("err_devices_zero", {"devices": "0", "accelerator": "cpu"}),
                         codes.classify("`Trainer(devices=0)` value is not a valid input using cpu accelerator.", "x"))
        self.assertEqual("err_env_missing", codes.classify("SLURM_PROCID", "x", "KeyError")[0])
        self.assertEqual(("x", {}), codes.classify("something else", "x"))


class AdapterBase:
    major = None
    expected_version = None
    session = None

    @classmethod
    def setUpClass(cls):
        if not ROOT:
            raise unittest.SkipTest("ACCORD_LIGHTNING_ROOT is not set")
        requests = [resolve(0, DDP_CPU_2), resolve(1, {"flags": {"strategy": "foo"}}), "this is not json",
                    {"cmd": "resolve", "id": "3", "case": {"flags": 5}}, {"cmd": "bogus", "id": "4"},
                    resolve(5, {"flags": {"accelerator": "gpu", "devices": 2}, "hardware": {"cuda_devices": 2}}),
                    resolve(6, {"flags": {}, "hardware": {"packages": ["transformer_engine"]}}),
                    resolve(7, {"flags": {"deterministic": True}})] + cls.extra_requests()
        replies = run_adapter(cls.major, requests)
        if not replies[0].get("ok"):
            raise unittest.SkipTest(f"Lightning {cls.major} not importable: {replies[0].get('error')}")
        cls.session = replies

    @classmethod
    def extra_requests(cls):
        return []

    def reply(self, i):
        return self.session[1 + i]

    def test_handshake(self):
        hello = self.session[0]
        self.assertEqual(1, hello["protocol"])
        self.assertEqual("lightning", hello["implementation"]["name"])
        self.assertEqual(self.expected_version, hello["implementation"]["version"])
        self.assertIn("accelerator:cpu", hello["implementation"]["capabilities"])

    def test_ddp_on_two_cpus(self):
        r = self.reply(0)
        self.assertEqual("0", r["id"])
        plan = r["outcome"]["plan"]
        self.assertEqual("ok", r["outcome"]["status"])
        self.assertEqual("cpu", plan["accelerator"])
        self.assertEqual(["cpu", "cpu"], plan["parallel_devices"])
        self.assertEqual("ddp", plan["strategy"]["name"])
        self.assertEqual("DDPStrategy", plan["strategy"]["class"])
        self.assertEqual("subprocess_script", plan["launcher"]["kind"])
        self.assertEqual({"class": "LightningEnvironment", "creates_processes_externally": False, "world_size": 2,
                          "global_rank": 0, "local_rank": 0, "node_rank": 0}, plan["cluster_environment"])
        self.assertTrue(plan["is_distributed"])

    def test_unknown_strategy_is_an_error(self):
        out = self.reply(1)["outcome"]
        self.assertEqual("error", out["status"])
        self.assertEqual("err_strategy_unknown", out["error"]["code"])

    def test_bad_requests_do_not_end_the_session(self):
        self.assertIn("errored", self.reply(2))
        self.assertEqual("3", self.reply(3)["id"])
        self.assertIn("errored", self.reply(3))
        self.assertIn("errored", self.reply(4))
        self.assertEqual("5", self.reply(5)["id"])  # later cases still answered
        self.assertEqual(len(self.session), 1 + 8 + len(self.extra_requests()))

    def test_faked_gpus(self):
        plan = self.reply(5)["outcome"]["plan"]
        self.assertEqual(["cuda:0", "cuda:1"], plan["parallel_devices"])

    def test_unfakeable_package_is_skipped(self):
        self.assertIn("skipped", self.reply(6))

    def test_determinism(self):
        det = self.reply(7)["outcome"]["plan"]["determinism"]
        self.assertTrue(det["use_deterministic_algorithms"])
        self.assertEqual(":4096:8", det["env"]["CUBLAS_WORKSPACE_CONFIG"])
        # the next case starts from a clean torch state
        self.assertFalse(self.reply(8)["outcome"]["plan"]["determinism"]["use_deterministic_algorithms"])


class Lightning16(AdapterBase, unittest.TestCase):
    major, expected_version = "1.6", "1.6.5"

    @classmethod
    def extra_requests(cls):
        return [resolve(8, DDP_CPU_2),
                resolve(9, {"flags": {"strategy": "dp", "accelerator": "cpu"}}),
                resolve(10, {"flags": {"gpus": 1}}),
                resolve(11, {"flags": {"strategy": "ddp"}, "interactive": True}),
                resolve(12, {"flags": {"strategy": "IPUStrategy", "accelerator": "dp"}}),
                resolve(13, {"flags": {"strategy": "", "accelerator": "ddp"}}),
                resolve(14, {"flags": {"accelerator": "ipu", "devices": "-1"}, "hardware": {"ipu": True}}),
                resolve(15, {"flags": {"accelerator": "tpu", "devices": 2}, "hardware": {"tpu": True}}),
                resolve(16, {"flags": {"precision": "16", "accelerator": "gpu"}, "hardware": {"cuda_devices": 1}}),
                resolve(17, {"flags": {"strategy": "ddp", "accelerator": "cpu", "devices": 2},
                             "env": {"SLURM_NTASKS": "2", "SLURM_PROCID": "x", "SLURM_LOCALID": "0",
                                     "SLURM_NODEID": "0"}}),
                resolve(18, {"flags": {"devices": 1, "sync_batchnorm": True}}),
                resolve(19, {"flags": {"strategy": "dp", "accelerator": "cpu"}, "env": {"RANK": "1"}}),
                resolve(20, {"flags": {"devices": 1, "use_distributed_sampler": False}})]

    def test_use_distributed_sampler_is_not_a_trainer_keyword(self):  # 1.6.5 has replace_sampler_ddp
        err = self.reply(20)["outcome"]["error"]
        self.assertEqual(("err_unexpected_keyword", {"owner": "Trainer", "flag": "use_distributed_sampler"}, "TypeError"),
                         (err["code"], err["fields"], err["exception"]))

    def test_handshake_declares_corpus_capabilities(self):
        caps = set(self.session[0]["implementation"]["capabilities"])
        self.assertLessEqual({"env:slurm", "env:lsf", "flag:instances", "flag:legacy_devices", "hardware:gpu_busy",
                              "determinism"}, caps)
        self.assertIn("package:deepspeed", caps)  # the distributed packages are faked on 1.6 (oracle.py)
        self.assertNotIn("package:transformer_engine", caps)

    def test_instance_constructor_error_comes_first(self):  # IPUStrategy() raises in user code
        self.assertEqual("err_strategy_needs_hardware", self.reply(12)["outcome"]["error"]["code"])

    def test_conflict_with_an_empty_strategy_name(self):  # "strategy  already set ..." (two spaces)
        err = self.reply(13)["outcome"]["error"]
        self.assertEqual("err_strategy_accelerator_conflict", err["code"])
        self.assertEqual("", err["fields"]["strategy"])

    def test_ipu_devices_string_is_a_type_error(self):  # range("-1") in IPUAccelerator.get_parallel_devices
        self.assertEqual("err_devices_type", self.reply(14)["outcome"]["error"]["code"])

    def test_tpu_parser_error_names_the_devices_flag(self):
        err = self.reply(15)["outcome"]["error"]
        self.assertEqual(("err_tpu_cores_invalid", "devices"), (err["code"], err["fields"]["flag"]))

    def test_fields_filled_from_the_connector(self):
        err = self.reply(16)["outcome"]["error"]
        self.assertEqual(("err_precision_unset", "'16'"), (err["code"], err["fields"].get("precision")))
        err = self.reply(17)["outcome"]["error"]
        self.assertEqual(("err_env_invalid", "SLURM_PROCID"), (err["code"], err["fields"].get("variable")))

    def test_layer_sync_only_for_strategies_that_take_it(self):
        self.assertIsNone(self.reply(18)["outcome"]["plan"]["layer_sync"])

    def test_rank_zero_messages_are_gated(self):
        out = self.reply(19)["outcome"]
        self.assertEqual(("ddp", []), (out["plan"]["strategy"]["name"], out["diagnostics"]))

    def test_dp_on_cpu_falls_back_with_warning(self):
        out = self.reply(9)["outcome"]
        self.assertEqual("ddp", out["plan"]["strategy"]["name"])
        self.assertEqual(["warn_strategy_cpu_fallback"], [d["code"] for d in out["diagnostics"]])

    def test_gpus_without_gpu(self):
        self.assertEqual("err_accelerator_unavailable", self.reply(10)["outcome"]["error"]["code"])

    def test_interactive(self):
        self.assertEqual("err_interactive_incompatible", self.reply(11)["outcome"]["error"]["code"])


class Lightning2(AdapterBase, unittest.TestCase):
    major, expected_version = "2.x", "2.2.5"

    @classmethod
    def extra_requests(cls):
        return [resolve(8, DDP_CPU_2),
                resolve(9, {"flags": {"accelerator": "GPU"}}),
                resolve(10, {"flags": {"precision": "16-mixed", "accelerator": "cpu"}}),
                resolve(11, {"flags": {"devices": 1, "tpu_cores": 8, "gpus": 1}}),
                resolve(12, {"flags": {"devices": 2, "use_distributed_sampler": False}}),
                resolve(13, {"flags": {}, "env": {"PL_TRAINER_GPUS": "2", "PL_TRAINER_DEVICES": "2"}}),
                resolve(14, {"flags": {"strategy": "fsdp", "accelerator": "gpu"}, "hardware": {"cuda_devices": 2}}),
                resolve(15, {"flags": {"strategy": "ddp_fork", "accelerator": "cpu"}, "hardware": {"fork": False}}),
                resolve(16, {"flags": {"precision": 16}, "hardware": {"cuda_devices": 2}, "interactive": True}),
                resolve(17, {"flags": {"strategy": "xla"}}),
                resolve(18, {"flags": {"accelerator": "cpu"}, "env": {"SLURM_NTASKS": "2", "SLURM_PROCID": "0",
                                                                     "SLURM_LOCALID": "0", "SLURM_NODEID": "0"}}),
                dict(resolve(19, DDP_CPU_2), profile="fabric-2.2")]

    def test_fabric_profile_is_skipped(self):  # the Trainer adapter does not answer for Fabric's connector
        self.assertIn("fabric", self.reply(19)["skipped"])

    def test_requirement_messages_name_the_package(self):  # str(_XLA_AVAILABLE) as Lightning prints it
        err = self.reply(17)["outcome"]["error"]  # and the strategy flag that named the class (seed item 7)
        self.assertEqual(("err_package_missing", {"package": "torch_xla", "component": "XLAStrategy", "strategy": "'xla'"}),
                         (err["code"], err["fields"]))

    def test_slurm_ntasks(self):
        err = self.reply(18)["outcome"]["error"]
        self.assertEqual(("err_slurm_ntasks_unsupported", {"ntasks": "2"}), (err["code"], err["fields"]))

    def test_fork_unsupported(self):
        err = self.reply(15)["outcome"]["error"]
        self.assertEqual(("err_fork_unsupported", {"strategy": "'ddp_fork'"}, "ValueError"),
                         (err["code"], err["fields"], err["exception"]))

    def test_precision_alias_and_interactive_single_gpu(self):
        notes = [(d["code"], d["fields"]) for d in self.reply(16)["outcome"]["diagnostics"]]
        self.assertEqual([("warn_precision_alias", {"precision": "16", "replacement": "16-mixed"}),
                          ("info_interactive_single_gpu", {"count": "2"}), ("info_amp", {"kind": "16bit"})], notes)

    def test_removed_flag_is_an_unexpected_trainer_keyword(self):  # the first one in the case's flag order
        err = self.reply(11)["outcome"]["error"]
        self.assertEqual(("err_unexpected_keyword", {"owner": "Trainer", "flag": "tpu_cores"}, "TypeError"),
                         (err["code"], err["fields"], err["exception"]))
        self.assertEqual("Trainer.__init__() got an unexpected keyword argument 'tpu_cores'", err["message"])

    def test_use_distributed_sampler_is_passed_through(self):
        self.assertEqual("ddp", self.reply(12)["outcome"]["plan"]["strategy"]["name"])

    def test_env_defaults_only_for_trainer_keywords(self):  # PL_TRAINER_GPUS names no 2.x keyword: ignored
        self.assertEqual(["cpu", "cpu"], self.reply(13)["outcome"]["plan"]["parallel_devices"])

    def test_fsdp_is_built(self):  # Debian's torch 1.13 on Python 3.11 needs package_fakes.import_torch_shard
        plan = self.reply(14)["outcome"]["plan"]
        self.assertEqual(("FSDPStrategy", "FSDPPrecision"), (plan["strategy"]["class"], plan["precision"]["plugin"]))

    def test_accelerator_names_are_validated(self):
        self.assertEqual("err_accelerator_unknown", self.reply(9)["outcome"]["error"]["code"])

    def test_fp16_on_cpu(self):
        out = self.reply(10)["outcome"]
        self.assertEqual("bf16-mixed", out["plan"]["precision"]["value"])
        self.assertEqual(["warn_cpu_precision_16", "info_amp"], [d["code"] for d in out["diagnostics"]])


def fabric(i, case, profile="fabric-2.2"):
    return {"cmd": "resolve", "id": str(i), "profile": profile, "case": case}


class LightningFabric(unittest.TestCase):
    """`adapter.py --lightning 2.x --connector fabric`: Lightning Fabric 2.2.5's _Connector."""
    session = None
    REQUESTS = [
        {"flags": {"devices": 1, "sync_batchnorm": True, "deterministic": True}},  # 0
        {"flags": {"accelerator": "cuda"}, "env": {"LT_ACCELERATOR": "cpu"}},  # 1
        {"flags": {"accelerator": "cuda"}, "env": {"LT_ACCELERATOR": "cpu", "LT_CLI_USED": "1"}},  # 2
        {"flags": {"plugins": ["TorchSyncBatchNorm"]}},  # 3
        {"flags": {"strategy": "dp", "accelerator": "cpu", "devices": 2}},  # 4
        {"flags": {"strategy": "fsdp", "accelerator": "tpu"}, "hardware": {"tpu": True}},  # 5
        {"flags": {"devices": 0}},  # 6
        DDP_CPU_2,  # 7
        {"flags": {"num_nodes": "abc"}},  # 8
        {"flags": {}, "env": {"LT_NUM_NODES": "2", "LT_CLI_USED": "yes"}},  # 9
        {"flags": {"strategy": "fsdp", "accelerator": "cpu"}},  # 10
        {"flags": {"accelerator": "tpu", "strategy": "ddp", "precision": "16-true"}, "hardware": {"tpu": True}},  # 11
        {"flags": {"strategy": "ddp", "accelerator": "gpu", "devices": 2}, "hardware": {"cuda_devices": 2},
         "interactive": True},  # 12
        {"flags": {"precision": 16}, "hardware": {"cuda_devices": 2}, "interactive": True},  # 13
        {"flags": {"num_nodes": None}},  # 14
        {"flags": {"devices": 3}, "env": {"LT_DEVICES": "2", "LT_CLI_USED": "1"}},  # 15
        {"flags": {"strategy": "single_device"}},  # 16
        {"flags": {"accelerator": "cuda"}, "hardware": {"cuda_devices": 8},
         "env": {"LT_DEVICES": "2", "LT_NUM_NODES": "3", "LT_CLI_USED": "1"}},  # 17
        {"flags": {"strategy": {"class": "DDPStrategy", "args": {"precision": "DoublePrecision"}},
                   "accelerator": "cpu"}},  # 18
        {"flags": {"accelerator": "cpu", "devices": 2}, "interactive": True},  # 19
    ]

    @classmethod
    def setUpClass(cls):
        if not ROOT:
            raise unittest.SkipTest("ACCORD_LIGHTNING_ROOT is not set")
        requests = [fabric(i, c) for i, c in enumerate(cls.REQUESTS)] + [fabric(len(cls.REQUESTS), DDP_CPU_2,
                                                                                  "lightning-2.2")]
        replies = run_adapter("2.x", requests, "fabric")
        if not replies[0].get("ok"):
            raise unittest.SkipTest(f"Lightning 2.x not importable: {replies[0].get('error')}")
        cls.session = replies

    def out(self, i):
        r = self.session[1 + i]
        self.assertEqual(str(i), r["id"])
        if "outcome" not in r:
            self.fail(f"no outcome: {r}")
        return r["outcome"]

    def error(self, i):
        out = self.out(i)
        self.assertEqual("error", out["status"], out)
        e = out["error"]
        return e["code"], e["fields"], e["exception"]

    def test_handshake_names_fabric(self):
        impl = self.session[0]["implementation"]
        self.assertEqual(("lightning-fabric", "2.2.5"), (impl["name"], impl["version"]))
        self.assertNotIn("flag:sync_batchnorm", impl["capabilities"])

    def test_trainer_profile_is_skipped(self):
        self.assertIn("skipped", self.session[1 + len(self.REQUESTS)])

    def test_unexpected_keyword(self):  # the first non-Fabric keyword of the call
        self.assertEqual(("err_unexpected_keyword", {"owner": "Fabric", "flag": "sync_batchnorm"}, "TypeError"),
                         self.error(0))

    def test_lt_variable_replaces_the_flag(self):
        self.assertEqual("cpu", self.out(1)["plan"]["accelerator"])

    def test_cli_conflict(self):
        self.assertEqual(("err_cli_conflict", {"flag": "accelerator", "value": "'cuda'", "env_value": "cpu"},
                          "ValueError"), self.error(2))
        self.assertEqual(("err_cli_conflict", {"flag": "devices", "value": "3", "env_value": "2"}, "ValueError"),
                         self.error(15))

    def test_cli_devices_and_nodes(self):
        plan = self.out(17)["plan"]
        self.assertEqual((["cuda:0", "cuda:1"], 3, "ddp"), (plan["parallel_devices"], plan["num_nodes"],
                                                            plan["strategy"]["name"]))

    def test_layer_sync_is_not_a_fabric_plugin(self):
        self.assertEqual(("err_plugin_invalid", {"plugin": "TorchSyncBatchNorm()"}, "TypeError"), self.error(3))

    def test_dp_on_cpu_falls_back_to_ddp(self):
        out = self.out(4)
        self.assertEqual(("ddp", "DDPStrategy"), (out["plan"]["strategy"]["name"], out["plan"]["strategy"]["class"]))
        self.assertEqual([("warn_strategy_cpu_fallback", {"strategy": "'dp'"})],
                         [(d["code"], d["fields"]) for d in out["diagnostics"]])

    def test_fsdp_on_tpu_is_xla_fsdp(self):
        plan = self.out(5)["plan"]
        self.assertEqual(("xla_fsdp", "XLAFSDPStrategy", "_XLALauncher", "XLAPrecision"),
                         (plan["strategy"]["name"], plan["strategy"]["class"], plan["launcher"]["class"],
                          plan["precision"]["plugin"]))

    def test_devices_zero_before_the_accelerator_is_resolved(self):
        self.assertEqual(("err_devices_zero", {"devices": "0", "accelerator": "auto"}, "ValueError"), self.error(6))

    def test_plan_has_no_trainer_only_keys(self):
        plan = self.out(7)["plan"]
        for key in ("is_distributed", "layer_sync", "determinism"):
            self.assertNotIn(key, plan)
        self.assertEqual(("ddp", "DDPStrategy", "_SubprocessScriptLauncher", "Precision", "32-true"),
                         (plan["strategy"]["name"], plan["strategy"]["class"], plan["launcher"]["class"],
                          plan["precision"]["plugin"], plan["precision"]["value"]))

    def test_num_nodes_not_an_int(self):
        self.assertEqual(("err_not_int", {"flag": "num_nodes", "value": "'abc'"}, "ValueError"), self.error(8))
        self.assertEqual(("err_not_int", {"flag": "num_nodes", "value": "None"}, "TypeError"), self.error(14))

    def test_lt_cli_used_not_an_int(self):  # read by Fabric.__init__ after the connector
        self.assertEqual(("err_not_int", {"flag": "LT_CLI_USED", "value": "'yes'"}, "ValueError"), self.error(9))

    def test_fsdp_needs_gpu(self):
        self.assertEqual(("err_strategy_needs_gpu", {"strategy": "fsdp", "accelerator": "'cpu'"}, "ValueError"),
                         self.error(10))

    def test_xla_accelerator_strategy_mismatch(self):
        code, fields, _ = self.error(11)
        self.assertEqual(("err_accelerator_strategy_mismatch", "DDPStrategy"), (code, fields["strategy_class"]))

    def test_interactive(self):
        self.assertEqual(("err_interactive_incompatible", {"strategy": "'ddp'"}, "RuntimeError"), self.error(12))
        plan = self.out(19)["plan"]
        self.assertEqual(("ddp_fork", "fork", True), (plan["strategy"]["name"], plan["launcher"]["start_method"],
                                                      plan["launcher"]["interactive_compatible"]))

    def test_precision_alias_and_interactive_single_gpu(self):
        out = self.out(13)
        self.assertEqual([("warn_precision_alias", {"precision": "16", "replacement": "16-mixed"}),
                          ("info_interactive_single_gpu", {"count": "2"}), ("info_amp", {"kind": "16-bit"})],
                         [(d["code"], d["fields"]) for d in out["diagnostics"]])
        self.assertEqual(("MixedPrecision", "16-mixed", "cuda"), tuple(out["plan"]["precision"][k] for k in
                                                                       ("plugin", "value", "device")))

    def test_fabric_registry_has_no_single_device(self):
        self.assertEqual("err_strategy_unknown", self.error(16)[0])

    def test_strategy_precision_argument(self):  # Fabric strategies take `precision=`
        self.assertEqual("DoublePrecision", self.out(18)["plan"]["precision"]["plugin"])


if __name__ == "__main__":
    unittest.main()
