package dev.loci.server;

import dev.loci.NamespaceScope;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A bearer token the server accepts, as stored in {@code loci.toml}: only the SHA-256 of the token
 * is kept, never the token.
 *
 * @param id a name for the token, shown in the access log and the journal ({@code token:<id>});
 *     never the token itself
 * @param sha256 the lowercase hex SHA-256 of the token's UTF-8 bytes
 * @param role what the token may do
 * @param grants the namespaces it may reach, at least one
 */
public record Credential(String id, String sha256, Role role, List<Grant> grants) {
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
  private static final Pattern HEX = Pattern.compile("[0-9a-f]{64}");

  /** Validates the fields and copies the grants. */
  public Credential {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(sha256, "sha256");
    Objects.requireNonNull(role, "role");
    grants = List.copyOf(grants);
    if (!ID.matcher(id).matches()) {
      throw new IllegalArgumentException(
          "token id: expected 1-64 characters from [A-Za-z0-9._-], found '" + id + "'");
    }
    if (!HEX.matcher(sha256).matches()) {
      throw new IllegalArgumentException(
          "token " + id + ": expected sha256 to be 64 lowercase hex digits");
    }
    if (grants.isEmpty()) {
      throw new IllegalArgumentException(
          "token " + id + ": expected at least one namespace, such as \"acme.*\" or \"*\"");
    }
  }

  /** Returns true if the credential reaches every namespace of {@code scope}. */
  public boolean covers(NamespaceScope scope) {
    for (Grant g : grants) {
      if (g.covers(scope)) {
        return true;
      }
    }
    return false;
  }

  /** The SHA-256 of {@code token}'s UTF-8 bytes. */
  public static byte[] hash(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK lacks SHA-256", e);
    }
  }

  /** The SHA-256 of {@code token} as lowercase hex, as stored in {@link #sha256()}. */
  public static String hashHex(String token) {
    return HexFormat.of().formatHex(hash(token));
  }
}
