// `tracespec audit verify|show|public-key|acknowledge`: checks the audit
// log's hash chain, stored payloads and signed seals, prints what left the
// machine readably, prints the public key that verifies the seals, and
// seals, after review, records a run left unsealed.
#include <cstdio>
#include <string>

#include "CLI/CLI.hpp"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "agent/gateway/audit_key.h"
#include "agent/gateway/audit_log.h"
#include "agent/gateway/audit_show.h"
#include "cli/commands.h"
#include "common/files.h"
#include "common/proto_io.h"
#include "common/status.h"

namespace tracespec::cli {
namespace {

struct AuditFlags {
  std::string log;
  std::string expect_head;
  std::string public_key;
  std::string witness;
  std::string audit_key;
  bool no_payloads = false;
  bool raw = false;
  std::string records;  // acknowledge: "A..B"
  std::string reason;
};

// --witness, else the log's default witness when it exists (written by the
// runs that signed the log), else "".
std::string WitnessFor(const AuditFlags& flags) {
  if (flags.witness == "none") return "";
  if (!flags.witness.empty()) return flags.witness;
  std::string fallback = gateway::DefaultAuditWitnessPath(flags.log);
  return !fallback.empty() && FileExists(fallback) ? fallback : "";
}

int RunVerify(const AuditFlags& flags) {
  std::unique_ptr<gateway::AuditPublicKey> key;
  if (!flags.public_key.empty()) {
    auto loaded = gateway::AuditPublicKey::Load(flags.public_key);
    if (!loaded.ok()) return ReportError(loaded.status());
    key = std::make_unique<gateway::AuditPublicKey>(*std::move(loaded));
  }
  auto check = gateway::VerifyAuditLog(flags.log, key.get());
  if (!check.ok()) return ReportError(check.status());
  const char* log = flags.log.c_str();
  if (!check->intact) {
    std::printf("%s: BROKEN at record %d: %s\n%d record(s) before it verify; head %s\n", log,
                check->first_bad_line, check->problem.c_str(), check->records,
                check->head_hash.c_str());
    return kExitCheckFailed;
  }
  if (!flags.expect_head.empty() && flags.expect_head != check->head_hash) {
    std::printf(
        "%s: the chain is intact (%d records) but its head %s is not the expected %s: "
        "records were removed from the end or the log was replaced\n",
        log, check->records, check->head_hash.c_str(), flags.expect_head.c_str());
    return kExitCheckFailed;
  }
  const std::string witness = WitnessFor(flags);
  if (!witness.empty()) {
    auto witnessed = gateway::CheckAuditWitness(witness, flags.log, key.get());
    if (!witnessed.ok()) return ReportError(witnessed.status());
    if (!witnessed->empty()) {
      std::printf("%s: %s\n", log, witnessed->c_str());
      return kExitCheckFailed;
    }
  }
  if (key != nullptr && !check->sealed()) {
    if (check->records == 0) {
      std::printf(
          "%s: UNSEALED: the log is empty, yet every log tracespec creates ends in a SEAL "
          "(record 1 at least): it was truncated\n",
          log);
    } else {
      std::printf(
          "%s: UNSEALED TAIL: records %d..%d come after the last %s and no signature covers "
          "them (the run that wrote them did not finish, or records after its seal were "
          "removed); records 1..%d verify, head %s\n",
          log, check->last_signed + 1, check->records,
          check->last_signed == 0 ? "signed record (there is none)" : "signed record",
          check->last_signed, check->head_hash.c_str());
    }
    return kExitCheckFailed;
  }
  std::string late;
  if (!check->late_seals.empty()) {
    std::vector<std::string> seqs;
    for (int s : check->late_seals) seqs.push_back(absl::StrCat(s));
    late = absl::StrCat("; late seal(s) at record ", absl::StrJoin(seqs, ", "),
                        " (a run left records unsealed; see their detail)");
  }
  if (!witness.empty()) absl::StrAppend(&late, "; every signed record witness ", witness, " holds is in the log");
  for (const gateway::AuditVerification::Acknowledged& a : check->acknowledged) {
    absl::StrAppend(&late, "; records ", a.from, "..", a.to,
                    " were not sealed by the run that wrote them, acknowledged by ", a.by,
                    " at record ", a.seal);
  }
  if (key != nullptr) {
    std::printf("%s: intact and sealed, %d record(s), %d signature(s) by key %s verified, "
                "head %s%s\n",
                log, check->records, check->signed_records, key->id().substr(0, 16).c_str(),
                check->head_hash.c_str(), late.c_str());
  } else {
    std::printf("%s: intact, %d record(s), head %s (signatures not checked: pass "
                "--public-key)%s\n",
                log, check->records, check->head_hash.c_str(), late.c_str());
  }
  return kExitOk;
}

int RunShow(const AuditFlags& flags) {
  auto records = gateway::ReadAuditRecords(flags.log);
  if (!records.ok()) return ReportError(records.status());
  gateway::AuditShowOptions options;
  options.payloads = !flags.no_payloads;
  options.raw = flags.raw;
  std::fputs(gateway::FormatAuditRecords(*records, options).c_str(), stdout);
  auto check = gateway::VerifyAuditLog(flags.log);
  if (!check.ok()) return ReportError(check.status());
  if (!check->intact) {
    std::printf("WARNING: the chain is broken at line %d: %s\n", check->first_bad_line,
                check->problem.c_str());
    return kExitCheckFailed;
  }
  std::printf("%zu record(s); chain intact, head %s\n", records->size(), check->head_hash.c_str());
  return kExitOk;
}

int RunAcknowledge(const AuditFlags& flags) {
  std::pair<std::string, std::string> range = absl::StrSplit(flags.records, "..");
  int from = 0, to = 0;
  if (!absl::SimpleAtoi(range.first, &from) || !absl::SimpleAtoi(range.second, &to) ||
      from < 1 || to < from) {
    return ReportError(absl::InvalidArgumentError(absl::StrCat(
        "--records ", flags.records, ": expected FIRST..LAST, e.g. 7..9, as `tracespec audit "
        "verify` or the refusing run printed them")));
  }
  std::string path =
      flags.audit_key.empty() ? gateway::DefaultAuditKeyPath() : flags.audit_key;
  auto signer = gateway::AuditSigner::LoadOrCreate(path);
  if (!signer.ok()) return ReportError(signer.status());
  auto seal =
      gateway::AuditLog::Acknowledge(flags.log, *signer, WitnessFor(flags), from, to, flags.reason);
  if (!seal.ok()) return ReportError(seal.status());
  std::printf("%s: records %d..%d acknowledged by %s; sealed by record %llu\n",
              flags.log.c_str(), from, to, seal->acknowledged_by().c_str(),
              static_cast<unsigned long long>(seal->sequence()));
  return kExitOk;
}

int RunPublicKey(const AuditFlags& flags) {
  std::string path =
      flags.audit_key.empty() ? gateway::DefaultAuditKeyPath() : flags.audit_key;
  auto signer = gateway::AuditSigner::LoadOrCreate(path);
  if (!signer.ok()) return ReportError(signer.status());
  std::fputs((*signer)->PublicKeyPem().c_str(), stdout);
  std::fprintf(stderr, "tracespec: key %s (id %s)\n", path.c_str(),
               (*signer)->public_key().id().c_str());
  return kExitOk;
}

}  // namespace

void AddAuditCommand(CLI::App& app, int* exit_code) {
  CLI::App* audit = app.add_subcommand(
      "audit", "Check and read the gateway's hash-chained, signed audit log (what left the "
               "machine)");
  audit->require_subcommand(1);
  audit->footer(ExitStatusFooter({{kExitCheckFailed, "the chain is broken"}}));
  auto flags = std::make_shared<AuditFlags>();

  CLI::App* verify = audit->add_subcommand(
      "verify",
      "Check the hash chain and every stored payload against its digest, naming the first "
      "edited, removed, inserted or reordered record; with --public-key also every signed "
      "checkpoint and seal, and that the log ends in a seal (exit 10 when broken or "
      "unsealed, 3 when signed with another key)");
  verify->add_option("LOG", flags->log, "Audit log (JSON Lines)")->required();
  verify->add_option("--public-key", flags->public_key,
                     "Public key (PEM, from `tracespec audit public-key`) the seals must be "
                     "signed with: detects a rechained log and an unsealed tail");
  verify->add_option("--witness", flags->witness,
                     "File of signed records kept elsewhere (e.g. lines from syslog): each must "
                     "be in the log unchanged; detects a rewritten log and whole sealed runs "
                     "removed from the end (default: the witness the runs that signed the log "
                     "wrote, $TRACESPEC_AUDIT_WITNESS_DIR or ~/.local/state/tracespec/witness, "
                     "when it exists; `none` to check none)");
  verify->add_option("--expect-head", flags->expect_head,
                     "Hash the last record must have (kept elsewhere, e.g. from an earlier "
                     "verify): also detects records removed from the end");
  verify->footer(ExitStatusFooter(
      {{kExitOk, "the chain is intact, and matches --expect-head, --public-key and --witness "
                 "when given"},
       {kExitInputError,
        "missing file, a file that is not an audit log, seals signed with another key"},
       {kExitEnvironment, "unreadable file"},
       {kExitCheckFailed,
        "the chain is broken, unsealed, or does not match --expect-head or --witness"}}));
  verify->callback([flags, exit_code] { *exit_code = RunVerify(*flags); });

  CLI::App* show = audit->add_subcommand(
      "show",
      "Print every record: time, direction, verdict, destination, size, SHA-256, rule, and the "
      "payload when the log stored it (exit 10 when the chain is broken)");
  show->add_option("LOG", flags->log, "Audit log (JSON Lines)")->required();
  show->add_flag("--no-payloads", flags->no_payloads, "Leave stored payloads out");
  show->add_flag("--raw", flags->raw, "Print payloads as stored instead of as chat messages");
  show->footer(ExitStatusFooter(
      {{kExitOk, "the chain is intact"},
       {kExitInputError, "missing file, or a file that is not an audit log"},
       {kExitEnvironment, "unreadable file"},
       {kExitCheckFailed, "the chain is broken"}}));
  show->callback([flags, exit_code] { *exit_code = RunShow(*flags); });

  CLI::App* public_key = audit->add_subcommand(
      "public-key",
      "Print the public key (PEM) of the key that signs audit logs, creating the key if it "
      "does not exist yet; give it to whoever verifies");
  public_key->add_option("--audit-key", flags->audit_key,
                         "Private key file (default: $TRACESPEC_AUDIT_KEY, else "
                         "$XDG_CONFIG_HOME/tracespec/audit-key.pem, else "
                         "~/.config/tracespec/audit-key.pem)");
  public_key->footer(ExitStatusFooter(
      {{kExitOk, "the public key printed"},
       {kExitInputError, "a key file that is not a private key"},
       {kExitEnvironment, "the key file cannot be read or created"}}));
  public_key->callback([flags, exit_code] { *exit_code = RunPublicKey(*flags); });

  CLI::App* acknowledge = audit->add_subcommand(
      "acknowledge",
      "Seal, after you reviewed them, the records at the end of a log that no seal covers (a "
      "run that did not finish, or records edited and rechained): runs refuse to extend such "
      "a log. The seal is signed and names you and your reason; `verify` lists it");
  acknowledge->add_option("LOG", flags->log, "Audit log (JSON Lines)")->required();
  acknowledge->add_option("--records", flags->records,
                          "The unsealed records, FIRST..LAST, exactly as the refusing run or "
                          "`verify --public-key` named them")
      ->required();
  acknowledge->add_option("--reason", flags->reason,
                          "Why they are acknowledged (kept in the seal)")
      ->required();
  acknowledge->add_option("--witness", flags->witness,
                          "Witness the log is checked against and the seal copied to (default "
                          "as for verify)");
  acknowledge->add_option("--audit-key", flags->audit_key,
                          "Private key file that signs the log (default as for public-key)");
  acknowledge->footer(ExitStatusFooter(
      {{kExitOk, "the records are sealed"},
       {kExitInputError,
        "missing or broken log, nothing unsealed, --records not exactly the unsealed records, "
        "another run has the log open"},
       {kExitEnvironment, "unreadable log or key"}}));
  acknowledge->callback([flags, exit_code] { *exit_code = RunAcknowledge(*flags); });
}

}  // namespace tracespec::cli
