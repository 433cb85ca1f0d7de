package dev.loci.server;

import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import java.util.Objects;
import java.util.Optional;

/**
 * The namespaces one credential may reach: {@code *} (every namespace), {@code acme} (exactly that
 * namespace) or {@code acme.*} (it and every namespace below it).
 *
 * @param scope the namespaces granted, empty for every namespace
 */
public record Grant(Optional<NamespaceScope> scope) {
  /** The grant of every namespace. */
  public static final Grant ALL = new Grant(Optional.empty());

  /** Checks presence. */
  public Grant {
    Objects.requireNonNull(scope, "scope");
  }

  /**
   * Parses {@code *}, {@code acme} or {@code acme.*}.
   *
   * @throws dev.loci.InvalidRequestException if the namespace part is not a valid namespace
   */
  public static Grant of(String text) {
    return text.equals("*") ? ALL : new Grant(Optional.of(NamespaceScope.of(text)));
  }

  /** Returns true if every namespace of {@code requested} lies inside this grant. */
  public boolean covers(NamespaceScope requested) {
    if (scope.isEmpty()) {
      return true;
    }
    NamespaceScope g = scope.get();
    if (g.descendants()) {
      return requested.root().isWithin(g.root());
    }
    return !requested.descendants() && requested.root().equals(g.root());
  }

  /** Returns true if {@code namespace} lies inside this grant. */
  public boolean covers(Namespace namespace) {
    return covers(NamespaceScope.exactly(namespace));
  }

  @Override
  public String toString() {
    return scope.map(NamespaceScope::toString).orElse("*");
  }
}
