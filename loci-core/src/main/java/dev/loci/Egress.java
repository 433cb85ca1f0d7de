package dev.loci;

import dev.loci.spi.CommandExecutor;
import dev.loci.spi.EgressPolicy;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The check at every boundary where content would leave the machine: a remote embedding provider, a
 * future extractor or LLM. Each layer that is an {@link EgressPolicy} (the subject layer, for
 * local-only verticals) may refuse. Thread-safe.
 */
public final class Egress {
  private final CommandExecutor engine;
  private final List<EgressPolicy> policies;

  Egress(CommandExecutor engine, List<EgressPolicy> policies) {
    this.engine = engine;
    this.policies = List.copyOf(policies);
  }

  /**
   * Checks that content of {@code ns} naming {@code subjectIds} may be sent to {@code destination}.
   *
   * @throws EgressRefusedException naming the destination and the policy that keeps it local
   */
  public void check(Namespace ns, Collection<String> subjectIds, String destination) {
    Objects.requireNonNull(ns, "ns");
    Objects.requireNonNull(subjectIds, "subjectIds");
    if (policies.isEmpty()) {
      return;
    }
    Optional<String> why =
        engine.read(
            () -> {
              for (EgressPolicy p : policies) {
                Optional<String> r = p.refusal(ns, subjectIds);
                if (r.isPresent()) {
                  return r;
                }
              }
              return Optional.<String>empty();
            });
    if (why.isPresent()) {
      throw new EgressRefusedException(destination, why.get());
    }
  }
}
