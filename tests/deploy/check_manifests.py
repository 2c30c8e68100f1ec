#!/usr/bin/env python3
"""Checks deploy/kubernetes/ against what its README says and what the
binary takes.

    check_manifests.py --tracespec BUILD/cli/tracespec --manifests deploy/kubernetes

Parses every manifest and kustomization.yaml, asks the real binary for the
flags of `serve validator`, `serve gateway` and `run` (their --help), and
checks the fields the README relies on (check_all). Then it breaks the
manifests in memory, one way at a time (MUTATIONS), and requires that each
breakage is reported: a check that cannot fail fails the test. It also
starts the real `serve gateway` with the ConfigMap's egress policy on
loopback (gateway_starts): the policy must load.

Exit 0 when everything holds; otherwise each problem on stderr, exit 1.
"""

import argparse
import copy
import os
import re
import signal
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:
    sys.exit("check_manifests.py: python3-yaml is missing (scripts/install-deps.sh installs it)")

NAMESPACE = "tracespec"
VALIDATOR = "tracespec-validator"
GATEWAY = "tracespec-gateway"
CLIENT_JOB = "tracespec-run"
ROLE = "tracespec.dev/role"
NAMESPACED_KINDS = {"Deployment", "Service", "Job", "ConfigMap", "Secret",
                    "PersistentVolumeClaim", "NetworkPolicy"}


# ---- loading ---------------------------------------------------------------

def load_manifests(directory):
    """{file name: [documents]} of every *.yaml but kustomization.yaml, and
    the kustomization; a file that does not parse is an error."""
    files, errors, kustomization = {}, [], None
    for name in sorted(os.listdir(directory)):
        if not name.endswith((".yaml", ".yml")):
            continue
        path = os.path.join(directory, name)
        try:
            with open(path, encoding="utf-8") as f:
                documents = [d for d in yaml.safe_load_all(f) if d is not None]
        except yaml.YAMLError as e:
            errors.append(f"{name}: does not parse: {e}")
            continue
        if name == "kustomization.yaml":
            kustomization = documents[0] if documents else {}
        else:
            files[name] = documents
    if kustomization is None:
        errors.append("kustomization.yaml: missing")
    return files, kustomization, errors


def help_flags(binary, *subcommand):
    """The long flags `BINARY SUBCOMMAND --help` lists, and those it marks
    REQUIRED."""
    out = subprocess.run([binary, *subcommand, "--help"], capture_output=True,
                         text=True, check=True).stdout
    flags, required = set(), set()
    for line in out.splitlines():
        # An option's line: two spaces, its names and type, then (after two
        # or more spaces, or on the next line) its description.
        m = re.match(r"^  (-\S.*?)(?:\s{2,}|$)", line)
        if m is None:
            continue
        names = re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", m.group(1))
        flags.update(names)
        if "REQUIRED" in m.group(1).split() and names:
            required.add(names[0])
    if not flags:
        raise RuntimeError(f"{binary} {' '.join(subcommand)} --help lists no flags")
    return flags, required


# ---- helpers ---------------------------------------------------------------

def objects(files):
    for name, documents in files.items():
        for d in documents:
            yield name, d


def find(files, kind, name):
    for _, d in objects(files):
        if d.get("kind") == kind and d.get("metadata", {}).get("name") == name:
            return d
    return None


def arg_values(args):
    """{--flag: value} of an args list (flags given as --flag VALUE or
    --flag=VALUE), and the positionals."""
    values, positionals, i = {}, [], 0
    while i < len(args):
        a = str(args[i])
        if a.startswith("--"):
            if "=" in a:
                k, v = a.split("=", 1)
                values[k] = v
            elif i + 1 < len(args) and not str(args[i + 1]).startswith("--"):
                values[a] = str(args[i + 1])
                i += 1
            else:
                values[a] = None
        else:
            positionals.append(a)
        i += 1
    return values, positionals


def port_of(address):
    m = re.fullmatch(r"(.+):(\d+)", address or "")
    return int(m.group(2)) if m else None


def pod_spec(workload):
    return workload.get("spec", {}).get("template", {}).get("spec", {})


def pod_labels(workload):
    return workload.get("spec", {}).get("template", {}).get("metadata", {}).get("labels", {})


def mount_for(container, path):
    """The volume mount of `container` whose mountPath holds `path`
    (the longest one)."""
    best = None
    for m in container.get("volumeMounts", []):
        mp = m["mountPath"].rstrip("/")
        if path == mp or path.startswith(mp + "/"):
            if best is None or len(mp) > len(best["mountPath"].rstrip("/")):
                best = m
    return best


def volume(spec, name):
    for v in spec.get("volumes", []):
        if v.get("name") == name:
            return v
    return None


def secret_keys(kustomization, files, name):
    """The keys of Secret `name`: from the kustomization's secretGenerator,
    or a Secret manifest; None when there is no such Secret."""
    for g in (kustomization or {}).get("secretGenerator", []):
        if g.get("name") == name:
            return {f.split("=", 1)[0] if "=" in f else os.path.basename(f)
                    for f in g.get("files", [])} | set(g.get("literals", []))
    s = find(files, "Secret", name)
    if s is not None:
        return set(s.get("data", {})) | set(s.get("stringData", {}))
    return None


def check_file_from_secret(errors, where, spec, container, path, kustomization, files):
    """`path` is a file of a Secret mounted in `container`; the Secret's name."""
    m = mount_for(container, path)
    if m is None:
        errors.append(f"{where}: {path} is under no volume mount")
        return None
    v = volume(spec, m["name"])
    if v is None or "secret" not in v:
        errors.append(f"{where}: {path} is not on a Secret volume")
        return None
    name = v["secret"]["secretName"]
    keys = secret_keys(kustomization, files, name)
    if keys is None:
        errors.append(f"{where}: Secret {name} (for {path}) is not defined")
        return None
    relative = path[len(m["mountPath"].rstrip("/")) + 1:]
    if relative not in keys:
        errors.append(f"{where}: {path}: Secret {name} has no key {relative} (has {sorted(keys)})")
    return name


def selects(policy, labels):
    match = policy.get("spec", {}).get("podSelector", {}).get("matchLabels", {})
    return all(labels.get(k) == v for k, v in match.items())


def is_dns_peer(peer):
    ns = peer.get("namespaceSelector", {}).get("matchLabels", {})
    pods = peer.get("podSelector", {}).get("matchLabels", {})
    return (ns == {"kubernetes.io/metadata.name": "kube-system"}
            and pods == {"k8s-app": "kube-dns"})


def is_namespace_pod_peer(peer):
    return set(peer) == {"podSelector"}


# ---- the checks ------------------------------------------------------------

def check_all(files, kustomization, helps):
    errors = []

    # Every object is named, namespaced where it must be, and listed.
    for name, d in objects(files):
        if not d.get("apiVersion") or not d.get("kind") or not d.get("metadata", {}).get("name"):
            errors.append(f"{name}: an object without apiVersion, kind or metadata.name")
            continue
        if d["kind"] in NAMESPACED_KINDS and d["metadata"].get("namespace") != NAMESPACE:
            errors.append(f"{name}: {d['kind']} {d['metadata']['name']} is not in namespace {NAMESPACE}")
    listed = set((kustomization or {}).get("resources", []))
    if listed != set(files):
        errors.append(f"kustomization.yaml: resources {sorted(listed)} are not the manifests {sorted(files)}")
    if find(files, "Namespace", NAMESPACE) is None:
        errors.append(f"no Namespace {NAMESPACE}")

    workloads = [d for _, d in objects(files) if d.get("kind") in ("Deployment", "Job")]

    # Every container: non-root, read-only root, no privilege escalation,
    # requests and limits; every tracespec container's flags are the binary's.
    for w in workloads:
        spec = pod_spec(w)
        wname = w["metadata"]["name"]
        psc = spec.get("securityContext", {})
        if psc.get("runAsNonRoot") is not True or not psc.get("runAsUser"):
            errors.append(f"{wname}: the pod does not run as a non-root user")
        if spec.get("automountServiceAccountToken") is not False:
            errors.append(f"{wname}: mounts a service account token")
        for c in spec.get("initContainers", []) + spec.get("containers", []):
            where = f"{wname}/{c.get('name')}"
            sc = c.get("securityContext", {})
            if sc.get("readOnlyRootFilesystem") is not True:
                errors.append(f"{where}: root filesystem not read-only")
            if sc.get("allowPrivilegeEscalation") is not False:
                errors.append(f"{where}: allows privilege escalation")
            if sc.get("capabilities", {}).get("drop") != ["ALL"]:
                errors.append(f"{where}: does not drop all capabilities")
            res = c.get("resources", {})
            for part in ("requests", "limits"):
                for r in ("cpu", "memory"):
                    if r not in res.get(part, {}):
                        errors.append(f"{where}: no {part}.{r}")
            if "command" in c:
                continue  # not the tracespec entry point
            args = [str(a) for a in c.get("args", [])]
            sub = ("serve", args[1]) if args[:1] == ["serve"] and len(args) > 1 else tuple(args[:1])
            if sub not in helps:
                errors.append(f"{where}: args start with {list(sub)}, not a subcommand checked here")
                continue
            known, required = helps[sub]
            values, _ = arg_values(args)
            for flag in values:
                if flag not in known:
                    errors.append(f"{where}: `tracespec {' '.join(sub)} --help` lists no {flag}")
            for flag in required:
                if flag not in values:
                    errors.append(f"{where}: the required {flag} of `tracespec {' '.join(sub)}` is missing")

    errors += check_server(files, kustomization, VALIDATOR, "validator", min_replicas=2,
                           headless=True)
    errors += check_server(files, kustomization, GATEWAY, "gateway", min_replicas=1,
                           headless=False)
    errors += check_gateway_files(files, kustomization)
    errors += check_client(files, kustomization)
    errors += check_network_policies(files, workloads)
    return errors


def server_container(deployment):
    for c in pod_spec(deployment).get("containers", []):
        if [str(a) for a in c.get("args", [])[:1]] == ["serve"]:
            return c
    return None


def check_server(files, kustomization, name, stage, min_replicas, headless):
    errors = []
    d = find(files, "Deployment", name)
    svc = find(files, "Service", name)
    if d is None or svc is None:
        return [f"no Deployment and Service {name}"]
    replicas = d.get("spec", {}).get("replicas", 1)
    if stage == "validator" and replicas < min_replicas:
        errors.append(f"{name}: {replicas} replicas, fewer than {min_replicas}")
    if stage == "gateway":
        if replicas != 1:
            errors.append(f"{name}: {replicas} replicas; the audit log has one writer")
        if d.get("spec", {}).get("strategy", {}).get("type") != "Recreate":
            errors.append(f"{name}: not replaced with Recreate (two gateways would share the log)")
    c = server_container(d)
    if c is None:
        return errors + [f"{name}: no container running `tracespec serve`"]
    args = [str(a) for a in c.get("args", [])]
    if args[:2] != ["serve", stage]:
        errors.append(f"{name}: args {args[:2]}, not serve {stage}")
    values, _ = arg_values(args)
    port = port_of(values.get("--listen"))
    if port is None:
        return errors + [f"{name}: --listen {values.get('--listen')} has no port"]
    if not values["--listen"].startswith(("0.0.0.0:", "[::]:")):
        errors.append(f"{name}: --listen {values['--listen']} is not on every address of the pod")
    if [p.get("containerPort") for p in c.get("ports", [])] != [port]:
        errors.append(f"{name}: containerPort {[p.get('containerPort') for p in c.get('ports', [])]} is not --listen's {port}")
    if headless and svc.get("spec", {}).get("clusterIP") != "None":
        errors.append(f"{name}: the Service is not headless (clusterIP: None)")
    if not headless and svc.get("spec", {}).get("clusterIP") == "None":
        errors.append(f"{name}: the Service is headless")
    sports = svc.get("spec", {}).get("ports", [])
    if len(sports) != 1 or sports[0].get("port") != port or sports[0].get("targetPort", port) != port:
        errors.append(f"{name}: the Service's port {sports} is not --listen's {port}")
    selector = svc.get("spec", {}).get("selector", {})
    labels = pod_labels(d)
    if not selector or any(labels.get(k) != v for k, v in selector.items()):
        errors.append(f"{name}: the Service's selector {selector} does not select its pods {labels}")
    if d.get("spec", {}).get("selector", {}).get("matchLabels", {}) != selector:
        errors.append(f"{name}: the Deployment's selector differs from the Service's")
    # The kubelet's grpc probe is plaintext without a client certificate:
    # on a TLS server it must not be used (it would never pass); without
    # TLS, the health service is probed.
    tls = "--tls-cert" in values
    for probe_name in ("readinessProbe", "livenessProbe"):
        probe = c.get(probe_name)
        if probe is None:
            errors.append(f"{name}: no {probe_name}")
            continue
        kind = "tcpSocket" if tls else "grpc"
        if set(probe) & {"grpc", "tcpSocket", "httpGet", "exec"} != {kind}:
            errors.append(f"{name}: {probe_name} is not a {kind} probe"
                          + (" (the kubelet's grpc probe cannot pass TLS)" if tls else ""))
        elif probe[kind].get("port") != port:
            errors.append(f"{name}: {probe_name} probes port {probe[kind].get('port')}, not {port}")
    # TLS: files from Secrets, mutual TLS.
    spec = pod_spec(d)
    if "--tls-client-ca" not in values or not tls or "--tls-key" not in values:
        errors.append(f"{name}: not mutual TLS (--tls-cert, --tls-key, --tls-client-ca)")
    for flag in ("--tls-cert", "--tls-key", "--tls-client-ca"):
        if flag in values:
            check_file_from_secret(errors, f"{name} {flag}", spec, c, values[flag],
                                   kustomization, files)
    return errors


def check_gateway_files(files, kustomization):
    errors = []
    d = find(files, "Deployment", GATEWAY)
    c = server_container(d) if d else None
    if c is None:
        return ["no gateway container"]
    spec = pod_spec(d)
    values, _ = arg_values([str(a) for a in c.get("args", [])])

    # The egress policy: a file of a mounted ConfigMap.
    policy = values.get("--egress-policy", "")
    m = mount_for(c, policy)
    v = volume(spec, m["name"]) if m else None
    if v is None or "configMap" not in v:
        errors.append(f"gateway: --egress-policy {policy} is not on a ConfigMap volume")
    else:
        cm = find(files, "ConfigMap", v["configMap"]["name"])
        key = policy[len(m["mountPath"].rstrip("/")) + 1:]
        if cm is None or key not in cm.get("data", {}):
            errors.append(f"gateway: --egress-policy {policy}: ConfigMap {v['configMap']['name']} has no key {key}")
        else:
            llm_host = re.sub(r"^https?://([^/:]+).*$", r"\1", values.get("--llm", ""))
            if f'host: "{llm_host}"' not in cm["data"][key]:
                errors.append(f"gateway: the egress policy allows no host {llm_host} of --llm")

    # The audit log: on a PersistentVolumeClaim.
    log = values.get("--audit-log", "")
    m = mount_for(c, log)
    v = volume(spec, m["name"]) if m else None
    if v is None or "persistentVolumeClaim" not in v:
        errors.append(f"gateway: --audit-log {log} is not on a PersistentVolumeClaim")
    elif find(files, "PersistentVolumeClaim", v["persistentVolumeClaim"]["claimName"]) is None:
        errors.append(f"gateway: PersistentVolumeClaim {v['persistentVolumeClaim']['claimName']} is not defined")

    # The signing key: --audit-key is the copy an init container made, mode
    # 0600, from the key Secret, into a memory volume.
    key = values.get("--audit-key")
    if key is None:
        return errors + ["gateway: no --audit-key"]
    m = mount_for(c, key)
    v = volume(spec, m["name"]) if m else None
    if v is None or v.get("emptyDir", {}).get("medium") != "Memory":
        errors.append(f"gateway: --audit-key {key} is not on a memory-backed emptyDir")
        return errors
    copied = False
    for init in spec.get("initContainers", []):
        command = [str(a) for a in init.get("command", [])]
        if command[:3] != ["install", "-m", "0600"] or len(command) != 5:
            continue
        source, target = command[3], command[4]
        if target != key:
            continue
        tm = mount_for(init, target)
        if tm is None or tm["name"] != m["name"]:
            errors.append(f"gateway: init container {init['name']} writes {target} to another volume")
            continue
        secret = check_file_from_secret(errors, f"gateway init {init['name']}", spec, init,
                                        source, kustomization, files)
        if secret == "tracespec-audit-key":
            copied = True
    if not copied:
        errors.append(f"gateway: no init container copies the key Secret tracespec-audit-key to --audit-key {key}")
    for env in c.get("env", []):
        ref = env.get("valueFrom", {}).get("secretKeyRef")
        if ref is not None:
            keys = secret_keys(kustomization, files, ref["name"])
            if keys is None or ref["key"] not in keys:
                errors.append(f"gateway: env {env['name']} names {ref['name']}/{ref['key']}, not defined")
    if values.get("--api-key-env") and not any(e.get("name") == values["--api-key-env"] for e in c.get("env", [])):
        errors.append(f"gateway: --api-key-env {values['--api-key-env']} is not in its environment")
    return errors


def check_client(files, kustomization):
    errors = []
    job = find(files, "Job", CLIENT_JOB)
    if job is None:
        return [f"no Job {CLIENT_JOB}"]
    if pod_labels(job).get(ROLE) != "client":
        errors.append(f"{CLIENT_JOB}: its pods are not labelled {ROLE}: client")
    spec = pod_spec(job)
    c = spec.get("containers", [{}])[0]
    args = [str(a) for a in c.get("args", [])]
    values, positionals = arg_values(args)
    if positionals[:1] != ["run"]:
        errors.append(f"{CLIENT_JOB}: runs {positionals[:1]}, not run")
    for name, flag, scheme in ((VALIDATOR, "--validators", "dns:///"), (GATEWAY, "--gateway", "")):
        d = find(files, "Deployment", name)
        svc = find(files, "Service", name)
        if d is None or svc is None:
            continue
        listen, _ = arg_values([str(a) for a in server_container(d).get("args", [])])
        port = svc["spec"]["ports"][0]["port"]
        want = f"{scheme}{name}.{NAMESPACE}.svc.cluster.local:{port}"
        if values.get(flag) != want:
            errors.append(f"{CLIENT_JOB}: {flag} {values.get(flag)}, not {want}")
        if port_of(listen.get("--listen")) != port:
            errors.append(f"{CLIENT_JOB}: {name}'s Service port {port} is not its --listen port")
        if "--tls-client-ca" in listen:
            for suffix in ("-ca", "-cert", "-key"):
                if flag + suffix not in values:
                    errors.append(f"{CLIENT_JOB}: {name} asks for mutual TLS and {flag}{suffix} is missing")
                else:
                    check_file_from_secret(errors, f"{CLIENT_JOB} {flag}{suffix}", spec, c,
                                           values[flag + suffix], kustomization, files)
    # The validators read the classes the client builds: same claim.
    d = find(files, "Deployment", VALIDATOR)
    if d is not None:
        vc = server_container(d)
        vvalues, _ = arg_values([str(a) for a in vc.get("args", [])])
        cp = vvalues.get("--classpath", "")
        vm = mount_for(vc, cp)
        vv = volume(pod_spec(d), vm["name"]) if vm else None
        project = positionals[1] if len(positionals) > 1 else ""
        cm = mount_for(c, project)
        cv = volume(spec, cm["name"]) if cm else None
        claim = lambda v: (v or {}).get("persistentVolumeClaim", {}).get("claimName")
        if claim(vv) is None or claim(vv) != claim(cv):
            errors.append(f"{VALIDATOR}: --classpath {cp} is not on the claim the client's project {project} is on")
    return errors


def check_network_policies(files, workloads):
    errors = []
    policies = [d for _, d in objects(files) if d.get("kind") == "NetworkPolicy"]
    deny = [p for p in policies if p["spec"].get("podSelector") == {}
            and set(p["spec"].get("policyTypes", [])) == {"Ingress", "Egress"}
            and not p["spec"].get("ingress") and not p["spec"].get("egress")]
    if not deny:
        errors.append("networkpolicy: no default deny of ingress and egress for every pod")
    ports = {}
    for name in (VALIDATOR, GATEWAY):
        d = find(files, "Deployment", name)
        c = server_container(d) if d else None
        if c:
            ports[name] = port_of(arg_values([str(a) for a in c["args"]])[0].get("--listen"))
    for w in workloads:
        wname = w["metadata"]["name"]
        labels = pod_labels(w)
        mine = [p for p in policies if selects(p, labels)]
        egress = [(p["metadata"]["name"], r) for p in mine for r in p["spec"].get("egress", [])]
        ingress = [(p["metadata"]["name"], r) for p in mine for r in p["spec"].get("ingress", [])]
        if wname == VALIDATOR and egress:
            errors.append(f"{wname}: has egress ({', '.join(n for n, _ in egress)}); validators have none")
        external = False
        for pname, rule in egress:
            for peer in rule.get("to", [{}]) or [{}]:
                rule_ports = {(p.get("protocol", "TCP"), p.get("port")) for p in rule.get("ports", [])}
                if is_dns_peer(peer):
                    if not rule_ports or any(port != 53 for _, port in rule_ports):
                        errors.append(f"{wname}: {pname}: the DNS rule opens ports beyond 53: {sorted(rule_ports)}")
                elif is_namespace_pod_peer(peer):
                    to = peer["podSelector"].get("matchLabels", {})
                    allowed = {ports.get(VALIDATOR) if to.get(ROLE) == "validator" else
                               ports.get(GATEWAY) if to.get(ROLE) == "gateway" else None}
                    if not rule_ports or {p for _, p in rule_ports} - allowed:
                        errors.append(f"{wname}: {pname}: egress to {to} on {sorted(rule_ports)}, not a service port")
                elif wname == GATEWAY and set(peer) == {"ipBlock"} and rule_ports == {("TCP", 443)}:
                    external = True
                else:
                    errors.append(f"{wname}: {pname}: egress beyond the namespace and DNS: {peer} {sorted(rule_ports)}")
        if wname == GATEWAY and not external:
            errors.append(f"{wname}: no egress rule to the model endpoint (an ipBlock on TCP 443)")
        for pname, rule in ingress:
            peers = rule.get("from", [])
            rule_ports = {p.get("port") for p in rule.get("ports", [])}
            if (not peers or any(not is_namespace_pod_peer(p) or
                                 p["podSelector"].get("matchLabels") != {ROLE: "client"} for p in peers)
                    or rule_ports != {ports.get(wname)}):
                errors.append(f"{wname}: {pname}: ingress from {peers} on {sorted(rule_ports, key=str)}, not from clients on its port")
        if wname in ports and not ingress:
            errors.append(f"{wname}: no ingress from the clients")
    return errors


def gateway_starts(binary, files):
    """Starts the real `serve gateway` on loopback with the manifest's --llm,
    --model and the ConfigMap's egress policy (the audit log, key and
    witness in a temporary directory); an error when it does not listen or
    does not stop cleanly on SIGTERM."""
    d = find(files, "Deployment", GATEWAY)
    c = server_container(d)
    values, _ = arg_values([str(a) for a in c["args"]])
    policy = values["--egress-policy"]
    m = mount_for(c, policy)
    cm = find(files, "ConfigMap", volume(pod_spec(d), m["name"])["configMap"]["name"])
    text = cm["data"][policy[len(m["mountPath"].rstrip("/")) + 1:]]
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "egress.textproto"), "w", encoding="utf-8") as f:
            f.write(text)
        env = dict(os.environ, TRACESPEC_AUDIT_WITNESS_DIR=os.path.join(tmp, "witness"))
        env.pop("TRACESPEC_API_KEY", None)
        proc = subprocess.Popen(
            [binary, "serve", "gateway", "--listen", "127.0.0.1:0", "--llm", values["--llm"],
             "--model", values["--model"], "--egress-policy", os.path.join(tmp, "egress.textproto"),
             "--audit-log", os.path.join(tmp, "audit.jsonl"),
             "--audit-key", os.path.join(tmp, "audit-key.pem")],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        line = proc.stdout.readline()
        if "gateway service listening on" not in line:
            proc.kill()
            _, err = proc.communicate(timeout=30)
            return [f"gateway: `serve gateway` with the ConfigMap's policy does not start: {err.strip()}"]
        proc.send_signal(signal.SIGTERM)
        try:
            _, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            return ["gateway: `serve gateway` did not stop on SIGTERM"]
        if proc.returncode != 0:
            return [f"gateway: `serve gateway` exited {proc.returncode} on SIGTERM: {err.strip()}"]
    return []


# ---- breaking the manifests ------------------------------------------------

def _container(files, kind, name):
    return server_container(find(files, kind, name)) if kind == "Deployment" else \
        pod_spec(find(files, kind, name))["containers"][0]


def _set_arg(files, kind, name, flag, value):
    args = _container(files, kind, name)["args"]
    args[args.index(flag) + 1] = value


def _rename_flag(files, kind, name, flag, new_flag):
    args = _container(files, kind, name)["args"]
    args[args.index(flag)] = new_flag


def _policy(files, name):
    return find(files, "NetworkPolicy", name)


def _drop_flags(files, kind, name, *flags):
    """Removes each of `flags` and its value."""
    args = _container(files, kind, name)["args"]
    for flag in flags:
        i = args.index(flag)
        del args[i:i + 2]


def _policy_for(files, role, direction):
    """The NetworkPolicy selecting pods of `role` with `direction`
    ("ingress" or "egress") rules."""
    for _, d in objects(files):
        if d.get("kind") == "NetworkPolicy" and \
                d["spec"].get("podSelector", {}).get("matchLabels", {}).get(ROLE) == role and \
                d["spec"].get(direction):
            return d
    raise LookupError(f"{direction} policy of {role}")


# (what is broken, how, a text the report must hold)
MUTATIONS = [
    ("validator Service not headless",
     lambda f, k: find(f, "Service", VALIDATOR)["spec"].pop("clusterIP"), "not headless"),
    ("validator Service on another port",
     lambda f, k: find(f, "Service", VALIDATOR)["spec"]["ports"][0].update(port=7500),
     "Service's port"),
    ("validator --listen on another port",
     lambda f, k: _set_arg(f, "Deployment", VALIDATOR, "--listen", "0.0.0.0:7500"),
     "containerPort"),
    ("validator with one replica",
     lambda f, k: find(f, "Deployment", VALIDATOR)["spec"].update(replicas=1), "fewer than 2"),
    ("validator readiness probe on another port",
     lambda f, k: _container(f, "Deployment", VALIDATOR)["readinessProbe"]["tcpSocket"].update(port=7500),
     "readinessProbe probes port 7500"),
    ("validator liveness probe as grpc under TLS",
     lambda f, k: _container(f, "Deployment", VALIDATOR).update(livenessProbe={"grpc": {"port": 7411}}),
     "livenessProbe is not a tcpSocket probe"),
    ("validator plaintext, probed by tcpSocket",
     lambda f, k: _drop_flags(f, "Deployment", VALIDATOR, "--tls-cert", "--tls-key", "--tls-client-ca"),
     "readinessProbe is not a grpc probe"),
    ("validator flag the binary does not take",
     lambda f, k: _container(f, "Deployment", VALIDATOR)["args"].extend(["--threads", "2"]),
     "lists no --threads"),
    ("validator without its required --classpath",
     lambda f, k: _drop_flags(f, "Deployment", VALIDATOR, "--classpath"), "required --classpath"),
    ("validator TLS key not a key of its Secret",
     lambda f, k: _set_arg(f, "Deployment", VALIDATOR, "--tls-key", "/etc/tracespec/tls/server.key"),
     "has no key server.key"),
    ("validator root filesystem writable",
     lambda f, k: _container(f, "Deployment", VALIDATOR)["securityContext"].update(readOnlyRootFilesystem=False),
     "not read-only"),
    ("validator without limits",
     lambda f, k: _container(f, "Deployment", VALIDATOR)["resources"].pop("limits"), "no limits.cpu"),
    ("gateway flag the binary does not take",
     lambda f, k: _rename_flag(f, "Deployment", GATEWAY, "--audit-log", "--audit-file"),
     "lists no --audit-file"),
    ("gateway --audit-key not the copied key",
     lambda f, k: _set_arg(f, "Deployment", GATEWAY, "--audit-key", "/run/tracespec/audit-key/other.pem"),
     "no init container copies"),
    ("gateway key copied from another Secret",
     lambda f, k: volume(pod_spec(find(f, "Deployment", GATEWAY)), "audit-key-secret")["secret"].update(
         secretName="tracespec-gateway-tls"), "no init container copies"),
    ("gateway key Secret not generated",
     lambda f, k: k["secretGenerator"].__setitem__(
         slice(None), [g for g in k["secretGenerator"] if g["name"] != "tracespec-audit-key"]),
     "Secret tracespec-audit-key"),
    ("gateway --egress-policy not the ConfigMap's file",
     lambda f, k: _set_arg(f, "Deployment", GATEWAY, "--egress-policy", "/etc/tracespec/policy/policy.textproto"),
     "has no key policy.textproto"),
    ("gateway --audit-log on the root filesystem",
     lambda f, k: _set_arg(f, "Deployment", GATEWAY, "--audit-log", "/var/log/audit.jsonl"),
     "--audit-log /var/log/audit.jsonl is not on a PersistentVolumeClaim"),
    ("gateway with two replicas",
     lambda f, k: find(f, "Deployment", GATEWAY)["spec"].update(replicas=2), "one writer"),
    ("gateway --llm not allowed by its policy",
     lambda f, k: _set_arg(f, "Deployment", GATEWAY, "--llm", "https://elsewhere.example/v1"),
     "allows no host elsewhere.example"),
    ("client --validators by the Service's virtual name",
     lambda f, k: _set_arg(f, "Job", CLIENT_JOB, "--validators", f"{VALIDATOR}:7411"),
     "--validators tracespec-validator:7411"),
    ("client --validators on another port",
     lambda f, k: _set_arg(f, "Job", CLIENT_JOB, "--validators",
                           f"dns:///{VALIDATOR}.{NAMESPACE}.svc.cluster.local:7500"), "not dns:///"),
    ("client without its validator certificate",
     lambda f, k: _drop_flags(f, "Job", CLIENT_JOB, "--validators-cert"), "--validators-cert is missing"),
    ("validator classes on another volume",
     lambda f, k: _set_arg(f, "Deployment", VALIDATOR, "--classpath", "/tmp/classes"),
     "is not on the claim the client's project"),
    ("client flag the binary does not take",
     lambda f, k: _container(f, "Job", CLIENT_JOB)["args"].extend(["--gateway-token", "x"]),
     "lists no --gateway-token"),
    ("client pods not labelled",
     lambda f, k: pod_labels(find(f, "Job", CLIENT_JOB)).pop(ROLE), "not labelled"),
    ("validators given DNS egress",
     lambda f, k: _policy_for(f, "validator", "ingress")["spec"].update(
         policyTypes=["Ingress", "Egress"], egress=copy.deepcopy(
             _policy_for(f, "gateway", "egress")["spec"]["egress"][1:])),
     "validators have none"),
    ("client egress to the outside",
     lambda f, k: _policy_for(f, "client", "egress")["spec"]["egress"].append(
         {"to": [{"ipBlock": {"cidr": "0.0.0.0/0"}}], "ports": [{"protocol": "TCP", "port": 443}]}),
     "tracespec-run: client-egress: egress beyond the namespace"),
    ("gateway without egress to the model",
     lambda f, k: _policy_for(f, "gateway", "egress")["spec"]["egress"].pop(0),
     "no egress rule to the model endpoint"),
    ("DNS rule opening every port",
     lambda f, k: _policy_for(f, "gateway", "egress")["spec"]["egress"][1].pop("ports"),
     "beyond 53"),
    ("validator ingress from every pod",
     lambda f, k: _policy_for(f, "validator", "ingress")["spec"]["ingress"][0]["from"][0].update(
         podSelector={}), "not from clients on its port"),
    ("no default deny",
     lambda f, k: _policy(f, "default-deny")["spec"].update(policyTypes=["Ingress"]),
     "no default deny"),
    ("a manifest not listed in the kustomization",
     lambda f, k: k["resources"].pop(), "are not the manifests"),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tracespec", required=True)
    parser.add_argument("--manifests", required=True)
    a = parser.parse_args()

    files, kustomization, errors = load_manifests(a.manifests)
    helps = {
        ("serve", "validator"): help_flags(a.tracespec, "serve", "validator"),
        ("serve", "gateway"): help_flags(a.tracespec, "serve", "gateway"),
        ("run",): help_flags(a.tracespec, "run"),
    }
    if not errors:
        errors = check_all(files, kustomization, helps)
    if not errors:
        errors = gateway_starts(a.tracespec, files)
    for e in errors:
        print(f"FAIL: {e}", file=sys.stderr)
    if errors:
        return 1
    count = sum(len(d) for d in files.values())
    print(f"deploy: {len(files)} manifests, {count} objects: every check holds; "
          "`serve gateway` starts with the ConfigMap's egress policy")

    # Each breakage must be reported.
    unnoticed = 0
    for what, mutate, expected in MUTATIONS:
        broken_files, broken_kustomization = copy.deepcopy(files), copy.deepcopy(kustomization)
        mutate(broken_files, broken_kustomization)
        found = check_all(broken_files, broken_kustomization, helps)
        if not any(expected in e for e in found):
            unnoticed += 1
            print(f"FAIL: breaking it ({what}) is not reported as '{expected}'; reported: {found}",
                  file=sys.stderr)
    if unnoticed:
        return 1
    print(f"deploy: each of {len(MUTATIONS)} breakages is reported")
    return 0


if __name__ == "__main__":
    sys.exit(main())
