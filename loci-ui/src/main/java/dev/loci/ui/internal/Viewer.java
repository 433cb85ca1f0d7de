package dev.loci.ui.internal;

import dev.loci.LegalCapability;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.server.Credential;
import dev.loci.server.Role;
import java.util.Optional;

/**
 * Who is looking at a page: the credential the session was opened with, or, on a server with no
 * credential configured (loopback only), the local user, who may do everything but what requires
 * {@code legal}, exactly as on the API.
 *
 * @param credential the session's credential, empty for the local user
 */
public record Viewer(Optional<Credential> credential) {
  /** The local user of a server without credentials. */
  public static final Viewer LOCAL = new Viewer(Optional.empty());

  /** Whether the viewer may do what {@code role} may (the API's rule). */
  public boolean allows(Role role) {
    return credential.map(c -> c.role().satisfies(role)).orElse(role != Role.LEGAL);
  }

  /** Whether the viewer may read {@code ns}. */
  public boolean reads(Namespace ns) {
    return credential.map(c -> c.covers(NamespaceScope.exactly(ns))).orElse(true);
  }

  /** The legal-tier capability, held by the token id, for a {@code legal} credential only. */
  public Optional<LegalCapability> legal() {
    return credential
        .filter(c -> c.role() == Role.LEGAL)
        .map(c -> new LegalCapability("token:" + c.id()));
  }

  /** The journal actor of the viewer's writes: {@code token:<id>} or {@code ui}. */
  public String actor() {
    return credential.map(c -> "token:" + c.id()).orElse("ui");
  }

  /** Who a review decision is recorded as: the token id, or {@code local} (as on the API). */
  public String reviewerId() {
    return credential.map(Credential::id).orElse("local");
  }

  /** A short description for the page header: token id and role, or "local user". */
  public String label() {
    return credential.map(c -> c.id() + " · " + c.role().label()).orElse("local user");
  }

  /** Whether a credential is behind the session (so logging out means something). */
  public boolean signedIn() {
    return credential.isPresent();
  }
}
