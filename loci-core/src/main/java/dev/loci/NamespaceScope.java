package dev.loci;

import java.util.Objects;

/**
 * Which namespaces a query reads: one namespace, or one namespace and all its descendants. Written
 * {@code acme.support} for the first and {@code acme.support.*} for the second.
 *
 * @param root the namespace the scope starts at
 * @param descendants whether namespaces below {@code root} are included
 */
public record NamespaceScope(Namespace root, boolean descendants) {
  /** Checks the root is present. */
  public NamespaceScope {
    Objects.requireNonNull(root, "root");
  }

  /**
   * Parses {@code acme.support} (exactly that namespace) or {@code acme.support.*} (it and every
   * namespace below it).
   *
   * @throws InvalidRequestException if the namespace part does not follow {@link Namespace#RULE}
   */
  public static NamespaceScope of(String text) {
    Objects.requireNonNull(text, "text");
    if (text.endsWith(".*")) {
      return new NamespaceScope(Namespace.of(text.substring(0, text.length() - 2)), true);
    }
    return new NamespaceScope(Namespace.of(text), false);
  }

  /** The scope that holds exactly {@code namespace}. */
  public static NamespaceScope exactly(Namespace namespace) {
    return new NamespaceScope(namespace, false);
  }

  /** Returns true if {@code namespace} is inside this scope. */
  public boolean contains(Namespace namespace) {
    return descendants ? namespace.isWithin(root) : namespace.equals(root);
  }

  @Override
  public String toString() {
    return descendants ? root.value() + ".*" : root.value();
  }
}
