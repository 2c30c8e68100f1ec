// `tracespec audit verify|show LOG`: checks the audit log's hash chain, and
// prints what left the machine, readably.
#include <cstdio>
#include <string>

#include "CLI/CLI.hpp"
#include "absl/strings/str_cat.h"
#include "agent/gateway/audit_log.h"
#include "agent/gateway/audit_show.h"
#include "cli/commands.h"
#include "common/status.h"

namespace tracespec::cli {
namespace {

struct AuditFlags {
  std::string log;
  std::string expect_head;
  bool no_payloads = false;
  bool raw = false;
};

int RunVerify(const AuditFlags& flags) {
  auto check = gateway::VerifyAuditLog(flags.log);
  if (!check.ok()) return ReportError(check.status());
  if (!check->intact) {
    std::printf("%s: BROKEN at line %d: %s\n%d record(s) before it verify; head %s\n",
                flags.log.c_str(), check->first_bad_line, check->problem.c_str(), check->records,
                check->head_hash.c_str());
    return kExitCheckFailed;
  }
  if (!flags.expect_head.empty() && flags.expect_head != check->head_hash) {
    std::printf(
        "%s: the chain is intact (%d records) but its head %s is not the expected %s: "
        "records were removed from the end or the log was replaced\n",
        flags.log.c_str(), check->records, check->head_hash.c_str(), flags.expect_head.c_str());
    return kExitCheckFailed;
  }
  std::printf("%s: intact, %d record(s), head %s\n", flags.log.c_str(), check->records,
              check->head_hash.c_str());
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

}  // namespace

void AddAuditCommand(CLI::App& app, int* exit_code) {
  CLI::App* audit = app.add_subcommand(
      "audit", "Check and read the gateway's hash-chained audit log (what left the machine)");
  audit->require_subcommand(1);
  audit->footer(ExitStatusFooter({{kExitCheckFailed, "the chain is broken"}}));
  auto flags = std::make_shared<AuditFlags>();

  CLI::App* verify = audit->add_subcommand(
      "verify",
      "Check the hash chain: names the first edited, removed, inserted or reordered record "
      "(exit 10 when broken)");
  verify->add_option("LOG", flags->log, "Audit log (JSON Lines)")->required();
  verify->add_option("--expect-head", flags->expect_head,
                     "Hash the last record must have (kept elsewhere, e.g. from an earlier "
                     "verify): also detects records removed from the end");
  verify->footer(ExitStatusFooter(
      {{kExitOk, "the chain is intact, and ends in --expect-head when given"},
       {kExitInputError, "missing file, or a file that is not an audit log"},
       {kExitEnvironment, "unreadable file"},
       {kExitCheckFailed, "the chain is broken, or its head is not --expect-head"}}));
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
}

}  // namespace tracespec::cli
