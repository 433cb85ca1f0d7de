package dev.loci.pathway.internal;

import dev.loci.pathway.RedactionPolicy;
import java.util.HashMap;
import java.util.Map;

/**
 * Texts already redacted, before the command that stores them: redaction is linear but user-sized
 * work, and nothing unbounded runs under the engine's write path (see {@code Engine}). A decision
 * uses a prepared result only if the namespace's policy is still the one it was made with and the
 * text is the same; otherwise (a policy changed meanwhile) it redacts again.
 */
public final class Redactions {
  /** No texts prepared: every decision redacts for itself. */
  public static final Redactions NONE = new Redactions(RedactionPolicy.off(), Map.of());

  private final RedactionPolicy policy;
  private final Map<String, RedactionPolicy.Redacted> done;

  private Redactions(RedactionPolicy policy, Map<String, RedactionPolicy.Redacted> done) {
    this.policy = policy;
    this.done = done;
  }

  /** Redacts {@code texts} with {@code policy} now, in the calling thread. */
  public static Redactions of(RedactionPolicy policy, String... texts) {
    Map<String, RedactionPolicy.Redacted> done = new HashMap<>();
    for (String t : texts) {
      done.computeIfAbsent(t, policy::redact);
    }
    return new Redactions(policy, done);
  }

  RedactionPolicy.Redacted redact(RedactionPolicy current, String text) {
    RedactionPolicy.Redacted r = current == policy ? done.get(text) : null;
    return r != null ? r : current.redact(text);
  }
}
