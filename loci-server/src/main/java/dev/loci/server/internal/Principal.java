package dev.loci.server.internal;

import dev.loci.NamespaceScope;
import dev.loci.server.Credential;
import dev.loci.server.Role;
import java.util.Optional;

/**
 * Who is calling: the credential a request presented, or, when the server has no credentials
 * configured (loopback only), the local user, who may do everything but use the routes that require
 * {@code legal}: those read data that may carry personal information, and must never be reachable
 * without a credential (Pathway Memory Specification section 6.2), so only a {@code legal} token
 * passes them.
 *
 * @param credential the credential, empty for the local user
 */
record Principal(Optional<Credential> credential) {
  /** The local user of a server without credentials. */
  static final Principal LOCAL = new Principal(Optional.empty());

  /** The token id, or {@code -} for the local user; safe to log. */
  String id() {
    return credential.map(Credential::id).orElse("-");
  }

  /** The journal actor: {@code token:<id>}, or {@code http} for the local user. */
  String actor() {
    return credential.map(c -> "token:" + c.id()).orElse("http");
  }

  boolean satisfies(Role required) {
    return credential.map(c -> c.role().satisfies(required)).orElse(required != Role.LEGAL);
  }

  boolean covers(NamespaceScope scope) {
    return credential.map(c -> c.covers(scope)).orElse(true);
  }
}
