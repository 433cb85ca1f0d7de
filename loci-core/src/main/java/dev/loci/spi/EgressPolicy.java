package dev.loci.spi;

import dev.loci.Namespace;
import java.util.Collection;
import java.util.Optional;

/**
 * A {@link Layer} that can forbid content from leaving the machine: a namespace or data subject
 * marked with a vertical whose policy is local-only. Asked by {@link dev.loci.Egress} before
 * anything sends content elsewhere (a remote embedding model, an extractor or LLM).
 */
public interface EgressPolicy {
  /**
   * Why content of {@code namespace} naming {@code subjectIds} must stay on this machine, or empty
   * if it may leave. Called under the engine's shared access; must be cheap.
   */
  Optional<String> refusal(Namespace namespace, Collection<String> subjectIds);
}
