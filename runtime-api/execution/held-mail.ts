// Mail sent by bindings during an apply is held until its transaction commits: an invitation whose row a rollback
// removes (a failed script, a write that was not planned) must not have reached anyone's inbox.
import type { Mailer } from '../define.ts';

export interface HeldMailer extends Mailer {
  /** Send what was held, once the transaction committed. */
  release(): Promise<void>;
}

export function holdMail(mailer: Mailer): HeldMailer {
  const held: Parameters<Mailer['send']>[0][] = [];
  return {
    async send(message) {
      held.push(message);
    },
    async release() {
      // The writes are committed and cannot be undone for a failed delivery; an invitation can be sent again
      // (member_invite with resend), so a failure here is not the apply's.
      await Promise.allSettled(held.splice(0).map((m) => mailer.send(m)));
    },
  };
}
