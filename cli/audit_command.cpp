// `tracespec audit verify|show|public-key`: checks the audit log's hash
// chain, stored payloads and signed seals, prints what left the machine
// readably, and prints the public key that verifies the seals.
#include <cstdio>
#include <string>

#include "CLI/CLI.hpp"
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
};

// Every seal a witness holds (JSON lines copied from the log, e.g. from
// syslog; other lines are ignored) must be in the log, unchanged.
absl::StatusOr<std::string> CheckWitness(const std::string& witness_path,
                                         const std::string& log_path,
                                         const gateway::AuditPublicKey* key) {
  TS_ASSIGN_OR_RETURN(std::string text, ReadFile(witness_path));
  TS_ASSIGN_OR_RETURN(std::vector<v1::AuditRecord> records, gateway::ReadAuditRecords(log_path));
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    size_t brace = line.find('{');
    if (brace == absl::string_view::npos) continue;
    v1::AuditRecord seal;
    if (!FromJson(std::string(line.substr(brace)), &seal).ok()) continue;
    if (seal.verdict() != v1::SEAL && seal.verdict() != v1::CHECKPOINT) continue;
    if (key != nullptr && (seal.signing_key_id() != key->id() ||
                           !key->Verify(gateway::AuditSignedMessage(seal.hash()),
                                        seal.signature()))) {
      return absl::InvalidArgumentError(Located(
          witness_path, line_number, 0,
          "the witnessed record is not signed by the given public key"));
    }
    uint64_t sequence = seal.sequence();
    if (sequence == 0 || sequence > records.size()) {
      return absl::StrCat("record ", sequence, " (a ", v1::AuditVerdict_Name(seal.verdict()),
                          " the witness holds, ", witness_path, ":", line_number,
                          ") is missing: the log ends at record ", records.size(),
                          ", records were removed from its end");
    }
    if (records[sequence - 1].hash() != seal.hash()) {
      return absl::StrCat("record ", sequence, " differs from the ",
                          v1::AuditVerdict_Name(seal.verdict()), " the witness holds (",
                          witness_path, ":", line_number, "): the log was rewritten");
    }
  }
  return std::string();
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
  if (!flags.witness.empty()) {
    auto witnessed = CheckWitness(flags.witness, flags.log, key.get());
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
                     "File of seal records kept elsewhere (e.g. lines from syslog): each must "
                     "be in the log unchanged; detects whole sealed runs removed from the end");
  verify->add_option("--expect-head", flags->expect_head,
                     "Hash the last record must have (kept elsewhere, e.g. from an earlier "
                     "verify): also detects records removed from the end");
  verify->callback([flags, exit_code] { *exit_code = RunVerify(*flags); });

  CLI::App* show = audit->add_subcommand(
      "show",
      "Print every record: time, direction, verdict, destination, size, SHA-256, rule, and the "
      "payload when the log stored it (exit 10 when the chain is broken)");
  show->add_option("LOG", flags->log, "Audit log (JSON Lines)")->required();
  show->add_flag("--no-payloads", flags->no_payloads, "Leave stored payloads out");
  show->add_flag("--raw", flags->raw, "Print payloads as stored instead of as chat messages");
  show->callback([flags, exit_code] { *exit_code = RunShow(*flags); });

  CLI::App* public_key = audit->add_subcommand(
      "public-key",
      "Print the public key (PEM) of the key that signs audit logs, creating the key if it "
      "does not exist yet; give it to whoever verifies");
  public_key->add_option("--audit-key", flags->audit_key,
                         "Private key file (default: $TRACESPEC_AUDIT_KEY, else "
                         "$XDG_CONFIG_HOME/tracespec/audit-key.pem, else "
                         "~/.config/tracespec/audit-key.pem)");
  public_key->callback([flags, exit_code] { *exit_code = RunPublicKey(*flags); });
}

}  // namespace tracespec::cli
