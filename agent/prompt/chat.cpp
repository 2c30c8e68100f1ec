// Chat roles; see chat.h.
#include "agent/prompt/chat.h"

namespace tracespec::prompt {

const char* RoleName(Role role) {
  switch (role) {
    case Role::kSystem: return "system";
    case Role::kUser: return "user";
    case Role::kAssistant: return "assistant";
  }
  return "user";
}

}  // namespace tracespec::prompt
