package dev.loci.postgres;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a {@link PostgresJournal} connects: a JDBC URL plus the credentials taken out of it, so
 * that the password never appears in logs or messages ({@link #redacted()}).
 *
 * @param jdbcUrl the driver's URL, without credentials; driver options (for example {@code
 *     sslmode=verify-full}) are kept
 * @param user the user name, if given
 * @param password the password, if given in the URL or in the {@code PGPASSWORD} environment
 *     variable
 */
public record PostgresUrl(String jdbcUrl, Optional<String> user, Optional<String> password) {
  /** Checks presence. */
  public PostgresUrl {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
  }

  /**
   * Parses {@code postgresql://[user[:password]@]host[:port]/database[?options]} (also {@code
   * postgres://} and {@code jdbc:postgresql://...}).
   *
   * @throws IllegalArgumentException naming the expected form
   */
  public static PostgresUrl parse(String url) {
    Objects.requireNonNull(url, "url");
    String rest;
    if (url.startsWith("jdbc:postgresql://")) {
      rest = url.substring("jdbc:postgresql://".length());
    } else if (url.startsWith("postgresql://")) {
      rest = url.substring("postgresql://".length());
    } else if (url.startsWith("postgres://")) {
      rest = url.substring("postgres://".length());
    } else {
      throw new IllegalArgumentException(
          "expected a journal URL of the form postgresql://[user[:password]@]host[:port]/database,"
              + " found '"
              + redact(url)
              + "'");
    }
    URI uri;
    try {
      uri = new URI("postgresql://" + rest);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(
          "expected a journal URL of the form postgresql://[user[:password]@]host[:port]/database,"
              + " found '"
              + redact(url)
              + "': "
              + e.getReason(),
          e);
    }
    if (uri.getHost() == null || uri.getPath() == null || uri.getPath().length() < 2) {
      throw new IllegalArgumentException(
          "expected a journal URL with a host and a database, as in"
              + " postgresql://127.0.0.1:5432/loci, found '"
              + redact(url)
              + "'");
    }
    Optional<String> user = Optional.empty();
    Optional<String> password = Optional.ofNullable(System.getenv("PGPASSWORD"));
    if (uri.getRawUserInfo() != null) {
      String[] parts = uri.getRawUserInfo().split(":", 2);
      user = Optional.of(decode(parts[0]));
      if (parts.length == 2) {
        password = Optional.of(decode(parts[1]));
      }
    }
    String jdbc =
        "jdbc:postgresql://"
            + uri.getHost()
            + (uri.getPort() >= 0 ? ":" + uri.getPort() : "")
            + uri.getRawPath()
            + (uri.getRawQuery() != null ? "?" + uri.getRawQuery() : "");
    return new PostgresUrl(jdbc, user, password);
  }

  /** The URL for messages and logs: host, port and database, never the password. */
  public String redacted() {
    String plain = jdbcUrl.substring("jdbc:".length());
    int query = plain.indexOf('?');
    return (query < 0 ? plain : plain.substring(0, query)) + user.map(u -> " as " + u).orElse("");
  }

  @Override
  public String toString() {
    return redacted();
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }

  private static String redact(String url) {
    return url.replaceAll("//([^:/@]*):[^@/]*@", "//$1:***@");
  }
}
