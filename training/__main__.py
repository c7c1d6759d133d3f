"""``python -m training generate|train|export|run|smoke|iterate --config training/configs/NAME.json``.

- ``generate``: make the self-play chunks missing in ``OUT/data`` (resumable);
- ``train``: train, or go on training from ``OUT/checkpoint.pt``, to the configured epochs;
- ``export``: write ``OUT/weights.npz`` (the format ``sixtysix-net/1``) from the checkpoint;
- ``run``: the three in turn; ``smoke``: ``run`` with the smoke configuration by default;
- ``iterate``: iterated self-play, generation after generation (:mod:`training.iterate`),
  on worker processes (``--jobs``) or a Dask cluster (``--cluster ADDRESS``); with
  ``--ship``, copy the run's best generation into the package (``--ship-to DIR`` elsewhere)
  instead.

``OUT`` is the configuration's ``out`` (``training/runs/NAME``) unless ``--out`` is given.
``--stop-after SECONDS`` ends ``generate``, ``train`` or ``iterate`` at the next chunk,
epoch or gate batch after that time (exit status 3); run the same command again to go on.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from sixtysix.arena.executor import open_executor
from training.config import Config, load

ROOT = Path(__file__).resolve().parent.parent
SMOKE = ROOT / "training" / "configs" / "smoke.json"
NETS = ROOT / "src" / "sixtysix" / "nets"
#: The exit status of a run stopped by ``--stop-after`` (run it again to go on).
STOPPED = 3
WEIGHTS = "weights.npz"
#: The losses the export records (the history has the agreement with the search too).
LOSSES = ("policy", "value", "hand", "total")


def machine() -> str:
    """The CPU, its cores, the system and Python: printed with the throughput figures."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            cpu = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), cpu)
    except OSError:
        pass
    return (f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}")


def run_dir(config: Config, out: str | None) -> Path:
    path = Path(out) if out is not None else Path(config.out.format(name=config.name))
    return path if path.is_absolute() else (Path.cwd() / path if out is not None else ROOT / path)


def do_export(config: Config, run: Path, output: Path | None = None, overrides: Sequence[str] = ()) -> Path:
    from training.export import export
    from training.train import load_checkpoint

    state = load_checkpoint(run)
    if state is None:
        raise SystemExit(f"{run}: no checkpoint to export (run `python -m training train` first)")
    history = json.loads(state["history"])
    last = history["epochs"][-1] if history["epochs"] else {"train": history["initial"]["train"],
                                                            "validation": history["initial"]["validation"]}
    trained = {"config": config.name, "seed": config.seed, "positions": history["positions"],
               "epochs": len(history["epochs"]),
               "command": " ".join(["python -m training run --config",
                                    f"training/configs/{config.name}.json", *overrides]),
               "losses": {part: {name: value for name, value in last[part].items() if name in LOSSES}
                          for part in ("train", "validation")}}
    return export(state["model"], list(config.train.hidden), output or run / WEIGHTS, trained)


def do_iterate(config: Config, run: Path, args: argparse.Namespace) -> int:
    """``iterate``: go on with the run's generations, or ship its best with ``--ship``."""
    from training.iterate import iterate, ship  # torch
    from training.selfplay import Workers

    if args.ship or args.ship_to:
        ship(config, run, Path(args.ship_to) if args.ship_to else NETS)
        return 0
    jobs = max(1, args.workers if args.workers is not None else config.generate.workers)
    with open_executor(jobs, args.cluster) as executor:
        workers = Workers(executor, jobs, cluster=args.cluster is not None)
        return 0 if iterate(config, run, workers, stop_after=args.stop_after) else STOPPED


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=("generate", "train", "export", "run", "smoke", "iterate"))
    parser.add_argument("--config", help="the run's JSON configuration (smoke: training/configs/smoke.json)")
    parser.add_argument("--out", help="the run's directory (default: the configuration's out)")
    parser.add_argument("--workers", "--jobs", type=int, dest="workers",
                        help="processes for generate and iterate (default: the configuration's)")
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help="iterate: play on a Dask cluster (tcp://host:port, or 'local' to start one)")
    parser.add_argument("--ship", action="store_true",
                        help="iterate: copy the best generation's weights and card into the package")
    parser.add_argument("--ship-to", metavar="DIR", help="--ship: copy them here instead")
    parser.add_argument("--stop-after", type=float, metavar="SECONDS",
                        help="stop generate, train or iterate after about this long (exit 3: run again)")
    parser.add_argument("--chunks", type=int, help="use only the first N chunks (to measure, or to try)")
    parser.add_argument("--epochs", type=int, help="train for N epochs instead of the configuration's")
    parser.add_argument("--output", help="export: the weights file (default: OUT/weights.npz)")
    args = parser.parse_args(argv)
    if args.config is None and args.command != "smoke":
        parser.error("--config is required")
    config = load(args.config or SMOKE)
    overrides = []
    if args.chunks is not None:
        config = replace(config, generate=replace(config.generate, chunks=args.chunks))
        overrides.append(f"--chunks {args.chunks}")
    if args.epochs is not None:
        config = replace(config, train=replace(config.train, epochs=args.epochs))
        overrides.append(f"--epochs {args.epochs}")
    run = run_dir(config, args.out)
    run.mkdir(parents=True, exist_ok=True)
    print(f"{args.command}: configuration {config.name!r}, seed {config.seed}, in {run}")
    print(f"machine: {machine()}")
    if args.command == "iterate":
        return do_iterate(config, run, args)
    stages = ("generate", "train", "export") if args.command in ("run", "smoke") else (args.command,)
    if "generate" in stages:
        from training.generate import generate
        missing = generate(config, run / "data", workers=args.workers, stop_after=args.stop_after)
        if missing:
            return STOPPED
    if "train" in stages:
        from training.train import train
        history = train(config, run, stop_after=args.stop_after)
        if len(history["epochs"]) < config.train.epochs:
            return STOPPED
    if "export" in stages:
        path = do_export(config, run, Path(args.output) if args.output else None, overrides)
        print(f"export: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
