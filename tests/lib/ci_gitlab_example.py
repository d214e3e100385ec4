#!/usr/bin/python3
"""Check that the complete example of ci/gitlab/README.md includes
ci/gitlab/perfverdict.gitlab-ci.yml, and write it to OUT.yml with that
include made local (the runner would clone the project over the
network).

  usage: ci_gitlab_example.py EXAMPLE.yml OUT.yml

Run by tests/ci/runners.sh.
"""
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
inc = doc["include"]
assert inc[0]["file"] == "ci/gitlab/perfverdict.gitlab-ci.yml", inc
doc["include"] = [{"local": "perfverdict.gitlab-ci.yml"}]
yaml.safe_dump(doc, open(sys.argv[2], "w"), sort_keys=False)
