package dev.loci.mcp.internal;

import dev.loci.LegalCapability;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.mcp.McpCaller;
import dev.loci.server.Role;
import java.util.Objects;
import java.util.Optional;

/**
 * One tool call: who calls, with which arguments, and the namespace it acts in unless it names
 * another.
 *
 * @param caller who calls
 * @param args the arguments
 * @param defaultNamespace the namespace of a call that names none ({@code --ns} over stdio, {@code
 *     ?ns=} over HTTP)
 */
public record Call(McpCaller caller, Args args, Namespace defaultNamespace) {
  /** The argument every namespaced tool takes. */
  public static final String NAMESPACE = "namespace";

  /** Checks presence. */
  public Call {
    Objects.requireNonNull(caller, "caller");
    Objects.requireNonNull(args, "args");
    Objects.requireNonNull(defaultNamespace, "defaultNamespace");
  }

  /**
   * The namespace the call acts in: its {@code namespace} argument, else the default; checked
   * against the caller's grant.
   *
   * @throws dev.loci.InvalidRequestException naming {@code namespace} if it is no namespace
   * @throws ToolError forbidden if the caller's grant does not cover it
   */
  public Namespace namespace() {
    return scope(false).root();
  }

  /**
   * The namespace of the call and, with {@code subtree}, every namespace below it; checked against
   * the caller's grant.
   */
  public NamespaceScope scope(boolean subtree) {
    Namespace ns = args.string(NAMESPACE).map(Namespace::of).orElse(defaultNamespace);
    NamespaceScope scope = new NamespaceScope(ns, subtree);
    if (!caller.covers(scope)) {
      throw ToolError.forbidden(
          Optional.of(NAMESPACE),
          NAMESPACE
              + ": the credential is not granted "
              + scope
              + "; it may use only the namespaces of its scope");
    }
    return scope;
  }

  /**
   * Checks the caller may do what {@code role} may.
   *
   * @throws ToolError forbidden naming {@code what} otherwise
   */
  public void require(Role role, String what) {
    if (!caller.allows(role)) {
      throw ToolError.forbidden(
          Optional.empty(),
          what
              + " requires the "
              + role.label()
              + " role or above; this credential does not have it");
    }
  }

  /**
   * The legal-tier capability, for reading superseded versions that may carry personal data.
   *
   * @throws ToolError forbidden naming {@code field} unless the caller holds the {@code legal} role
   */
  public LegalCapability legal(String field, String what) {
    return caller
        .legal(field)
        .orElseThrow(
            () ->
                ToolError.forbidden(
                    Optional.of(field),
                    field
                        + ": "
                        + what
                        + " may carry personal data; only a credential with the legal role may"
                        + " read superseded versions (as with include_history over HTTP)"));
  }
}
