package dev.loci.server;

import java.util.Locale;

/**
 * What a credential may do. {@code reader} < {@code writer} < {@code reviewer} < {@code admin} form
 * a ladder: each may do what the roles below it may. {@code legal} stands apart: it reads like
 * {@code reader} and is the only role allowed on routes that require {@code legal} (listing version
 * chains that may carry personal data, exporting audit logs, erasure); no other role, not even
 * {@code admin}, may use those. A server with no credential configured serves every other route to
 * the local user, but refuses these: they are never reachable without a {@code legal} token.
 */
public enum Role {
  /** Reads records in its namespaces. */
  READER,
  /** Reads and writes records in its namespaces. */
  WRITER,
  /**
   * Everything a writer may, plus deciding what becomes trusted in governed memory: promote and
   * reject candidates, resolve conflicts, set trusted project state.
   */
  REVIEWER,
  /** Everything a writer may, plus server operations such as {@code /metrics}. */
  ADMIN,
  /** Reads, plus the routes that require {@code legal}. */
  LEGAL;

  /** Returns true if a credential with this role may use a route that requires {@code required}. */
  public boolean satisfies(Role required) {
    if (required == LEGAL) {
      return this == LEGAL;
    }
    if (this == LEGAL) {
      return required == READER;
    }
    return ordinal() >= required.ordinal();
  }

  /** The name as written in {@code loci.toml} and on the command line: {@code reader} etc. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Parses {@code reader}, {@code writer}, {@code reviewer}, {@code admin} or {@code legal}.
   *
   * @throws IllegalArgumentException naming the expected values
   */
  public static Role of(String text) {
    for (Role r : values()) {
      if (r.label().equals(text)) {
        return r;
      }
    }
    throw new IllegalArgumentException(
        "expected a role of reader, writer, reviewer, admin or legal, found '" + text + "'");
  }
}
