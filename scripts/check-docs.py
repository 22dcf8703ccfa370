#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks that amp's documentation names only things that exist.

    scripts/check-docs.py ROOT AMP_OPT [FILE.md...]

For README.md and docs/*.md (or the files given), in code spans, fenced code
blocks and link targets:
  - a repository path (a word that starts with one of ROOT's top-level
    entries, or a relative link) must exist in ROOT (globs must match);
  - a pass name `amp-...` must be a pass or pipeline amp-opt registers, or
    one of amp's tools or build targets;
  - `PASS{name=value ...}` and `--PASS="name=value ..."` may give only
    options the pass registers;
  - an `amp-opt` command line may give only flags amp-opt registers.
And docs/Design.md must name every amp pass that each lowering pipeline
(amp-lower-to-*) runs with its default options.

Prints one line per stale reference, FILE:LINE: what, and exits 1 if there
is any; 0 otherwise.
"""

import glob
import os
import re
import subprocess
import sys

# Words that look like paths but name what a build or a run makes.
GENERATED = ("build/", "build-", "bench/models/.cache")
PIPELINES = ("amp-lower-to-llvm", "amp-lower-to-nvvm", "amp-lower-to-spirv",
             "amp-lower-to-vulkan")


def registered(amp_opt):
    """(passes and pipelines -> their options, amp-opt's own flags)."""
    text = subprocess.run([amp_opt, "--help-list-hidden"], capture_output=True, text=True,
                          check=True).stdout
    passes, flags, current = {}, set(), None
    for line in text.splitlines():
        m = re.match(r"^( +)--([A-Za-z0-9][\w.-]*)", line)
        if not m:
            continue
        indent, name = len(m.group(1)), m.group(2)
        if indent <= 2:
            flags.add(name)
            current = None
        elif indent == 6:
            passes[name] = set()
            current = name
        elif indent == 8 and current:
            passes[current].add(name)
    text = subprocess.run([amp_opt, "--help"], capture_output=True, text=True,
                          check=True).stdout
    for line in text.splitlines():
        m = re.match(r"^( +)--([A-Za-z0-9][\w.-]*)", line)
        if m and len(m.group(1)) == 6:
            passes.setdefault(m.group(2), set())
    return passes, flags


def other_names(root):
    """amp's tools, CMake targets and library names: `amp-...` words that
    are not passes."""
    names = set()
    for d in os.listdir(os.path.join(root, "tools")):
        names.add(d)
    for cm in glob.glob(os.path.join(root, "**", "CMakeLists.txt"), recursive=True):
        if os.sep + "build" in cm[len(root):]:
            continue
        with open(cm) as f:
            for m in re.finditer(r"add_(?:custom_target|executable|library)\(\s*([\w.-]+)",
                                 f.read()):
                names.add(m.group(1))
    for f in glob.glob(os.path.join(root, "test", "**", "*"), recursive=True):
        # lit test names and fuzz targets
        names.add(os.path.splitext(os.path.basename(f))[0])
    return names


def code_and_links(text):
    """(line number, snippet, is_link) for code spans, fenced blocks,
    prose (outside code spans) and link targets."""
    out = []
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            out.append((number, line, False))
            continue
        for m in re.finditer(r"`([^`]+)`", line):
            out.append((number, m.group(1), False))
        prose = re.sub(r"`[^`]*`|\]\([^)]*\)", " ", line)
        out.append((number, prose, False))
        for m in re.finditer(r"\]\(([^)\s]+)\)", line):
            out.append((number, m.group(1), True))
    return out


def ignored(root, path):
    """Whether git ignores `path` (what a setup script or a user makes)."""
    for candidate in (path, path + "/"):  # a file, or a folder
        try:
            r = subprocess.run(["git", "-C", root, "check-ignore", "-q", "--no-index",
                                candidate], capture_output=True)
        except OSError:
            return False
        if r.returncode == 0:
            return True
    return False


def path_words(snippet, tops):
    for word in re.split(r"[\s,;=()\[\]'\"]+", snippet):
        word = word.rstrip(".:")
        word = re.sub(r":\d+(:\d+)?$", "", word)  # FILE:LINE
        if word.startswith("./"):
            word = word[2:]
        head = word.split("/", 1)[0]
        if head in tops and ("/" in word or os.path.splitext(word)[1]):
            yield word


def check_file(path, root, tops, passes, flags, others):
    problems = []
    rel = os.path.relpath(path, root)
    with open(path) as f:
        text = f.read()
    for number, snippet, is_link in code_and_links(text):
        where = f"{rel}:{number}"
        if is_link:
            target = snippet.split("#", 1)[0]
            if not target or re.match(r"^[a-z]+:", target):
                continue
            full = os.path.normpath(os.path.join(os.path.dirname(path), target))
            if not os.path.exists(full):
                problems.append(f"{where}: link to '{snippet}', which does not exist")
            continue
        for word in path_words(snippet, tops):
            if word.startswith(GENERATED) or re.search(r"[<>$%]|\.\.\.|\bN\b", word):
                continue
            pattern = re.sub(r"\{[^}]*\}", "*", word)
            if not glob.glob(os.path.join(root, pattern)) and not ignored(root, word):
                problems.append(f"{where}: path '{word}' does not exist")
        for m in re.finditer(r"(?<![\w./-])-{0,2}(amp-[a-z0-9-]*[a-z0-9-]|mixed-precision)"
                             r"(?:\{([^}]*)\}|=\"([^\"]*)\")?", snippet):
            name, options = m.group(1), m.group(2) or m.group(3)
            if m.start() > 0 and snippet[m.start() - 1] == "," and "(" not in snippet:
                continue  # a list of values (--variants f32,amp-f16), not a pipeline
            if name.endswith("-") and options and "=" not in options:
                # amp-lower-to-{spirv,vulkan}: each name of the alternation
                for alt in options.split(","):
                    if name + alt.strip() not in passes:
                        problems.append(f"{where}: '{name + alt.strip()}' is no pass, "
                                        f"pipeline or tool of amp")
                continue
            if name not in passes:
                if name in others or name in flags:
                    continue
                problems.append(f"{where}: '{name}' is no pass, pipeline or tool of amp")
                continue
            if options is None:
                continue
            for option in re.split(r"\s+", options.strip()):
                key = option.split("=", 1)[0].strip()
                if key and key != "..." and re.match(r"^[a-z][\w-]*$", key) \
                        and key not in passes[name]:
                    problems.append(f"{where}: {name} has no option '{key}'")
        if re.search(r"(^|[\s/])amp-opt\s", snippet):
            command = snippet.split("amp-opt", 1)[1]
            command = re.split(r"\||&&|;|>", command)[0]
            for m in re.finditer(r"(?<![\w\"'{])--([a-z][\w.-]*)", command):
                flag = m.group(1)
                if flag.startswith("amp-") or flag == "mixed-precision":
                    continue  # a pass: checked above
                if flag not in flags and flag not in passes:
                    problems.append(f"{where}: amp-opt has no flag '--{flag}'")
    return problems


def check_design(root, amp_opt, passes):
    design = os.path.join(root, "docs", "Design.md")
    with open(design) as f:
        text = f.read()
    problems = []
    empty = "module {}\n"
    for pipeline in PIPELINES:
        r = subprocess.run([amp_opt, "-", f"--{pipeline}", "--dump-pass-pipeline",
                            "-o", os.devnull], input=empty, capture_output=True, text=True)
        ran = sorted(set(re.findall(r"\b(amp-[a-z0-9-]+)", r.stderr)) & set(passes))
        for name in ran:
            if not re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", text):
                problems.append(f"docs/Design.md: {pipeline} runs {name}, which it "
                                f"does not describe")
    return problems


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    root, amp_opt = os.path.abspath(argv[1]), argv[2]
    files = argv[3:] or ([os.path.join(root, "README.md")] +
                         sorted(glob.glob(os.path.join(root, "docs", "*.md"))))
    tops = {e for e in os.listdir(root) if not e.startswith(".git")} - {"build"}
    passes, flags = registered(amp_opt)
    others = other_names(root) | set(os.listdir(os.path.dirname(os.path.abspath(amp_opt))))
    problems = []
    for path in files:
        problems += check_file(path, root, tops, passes, flags, others)
    if not argv[3:]:
        problems += check_design(root, amp_opt, passes)
    for p in problems:
        print(p)
    print(f"{len(files)} files checked, {len(problems)} stale reference(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
