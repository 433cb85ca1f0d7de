package dev.loci.server;

import dev.loci.internal.Directories;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.tomlj.Toml;
import org.tomlj.TomlArray;
import org.tomlj.TomlParseResult;
import org.tomlj.TomlPosition;
import org.tomlj.TomlTable;

/**
 * Reads and writes {@code loci.toml}, the server configuration file, which lives in the data
 * directory unless {@code --config} names another path:
 *
 * <pre>
 * [server]
 * host = "127.0.0.1"                  # default 127.0.0.1
 * port = 7070                         # default 7070
 * allowed_ips = ["10.0.0.0/8", "::1"] # optional CIDR allowlist; /health is exempt
 * trusted_proxies = ["10.0.0.5"]      # whose X-Forwarded-For is believed
 *
 * [limits]
 * body_bytes = 16777216               # default 16 MiB
 * [limits.body_bytes_by_prefix]       # optional; the longest matching path prefix wins
 * "/v1/ns/" = 1048576
 * # json_depth, json_string_chars, json_array_items, tags_per_trace, ingest_*, body_idle_ms,
 * # body_min_bytes_per_second, body_wait_ms, recall_query_terms: see RequestLimits and docs/limits.md
 *
 * [rate_limit]                        # optional, per token
 * per_second = 50.0
 * burst = 100
 *
 * [journal]                           # optional: cluster mode (docs/cluster.md)
 * url = "postgresql://db/loci"
 * pool_size = 4                       # connections to it, default 4
 *
 * [[tokens]]
 * id = "ingest"
 * sha256 = "9f86d0..."                # SHA-256 hex of the token; never the token itself
 * role = "writer"                     # reader, writer, reviewer, admin or legal
 * namespaces = ["acme.*"]             # "acme" exactly, "acme.*" and below, or "*"
 * </pre>
 *
 * A token written in plain text ({@code token = "loci_..."} instead of {@code sha256}) is accepted
 * once: {@link #load} replaces the line with its hash and rewrites the file atomically, so the
 * plain text does not stay on disk. Not thread-safe for concurrent writers of the same file.
 */
public final class ConfigFile {
  /** The file name looked for in the data directory. */
  public static final String NAME = "loci.toml";

  /** The prefix of every token {@link #addToken} creates. */
  public static final String TOKEN_PREFIX = "loci_";

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final int TOKEN_BYTES = 32;

  private ConfigFile() {}

  /**
   * A token just created: the only time the token itself is seen.
   *
   * @param id the token's id in the file
   * @param token the bearer token to hand to the client
   */
  public record IssuedToken(String id, String token) {
    @Override
    public String toString() {
      return "IssuedToken[id=" + id + "]"; // never print the token by accident
    }
  }

  /**
   * Reads {@code file}, or returns {@link ServerConfig#defaults()} if it does not exist. Plain-text
   * tokens in it are replaced by their hashes first, and the file rewritten atomically.
   *
   * @throws ConfigException naming the file, line and key of what is wrong
   */
  public static ServerConfig load(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return ServerConfig.defaults();
    } catch (IOException e) {
      throw new ConfigException(file, "cannot read: " + e.getMessage());
    }
    TomlParseResult toml = parse(file, text);
    String hashed = hashPlaintextTokens(file, text, toml);
    if (!hashed.equals(text)) {
      writeAtomically(file, hashed);
      toml = parse(file, hashed);
    }
    try {
      return read(file, toml);
    } catch (IllegalArgumentException | dev.loci.InvalidRequestException e) {
      throw new ConfigException(file, e.getMessage());
    }
  }

  /**
   * The {@code [journal] url} of {@code file}: a PostgreSQL journal shared by several servers
   * ({@code postgresql://host/database}, credentials in the URL, a file or {@code PGPASSWORD});
   * empty if the file or the key is missing. Read at start only, like every setting but the tokens.
   *
   * @throws ConfigException if the file does not parse or the key is not a string
   */
  public static Optional<String> journalUrl(Path file) {
    Object url = journalKey(file, "url");
    if (url == null) {
      return Optional.empty();
    }
    if (!(url instanceof String s) || s.isBlank()) {
      throw new ConfigException(file, "journal.url: expected a postgresql:// URL, found " + url);
    }
    return Optional.of(s);
  }

  /**
   * The {@code [journal] pool_size} of {@code file}: how many connections the PostgreSQL journal
   * keeps; empty if the file or the key is missing. Read at start only.
   *
   * @throws ConfigException if the file does not parse or the key is not a whole number from {@code
   *     min} to {@code max}
   */
  public static Optional<Integer> journalPoolSize(Path file, int min, int max) {
    Object size = journalKey(file, "pool_size");
    if (size == null) {
      return Optional.empty();
    }
    if (!(size instanceof Long n) || n < min || n > max) {
      throw new ConfigException(
          file,
          "journal.pool_size: expected "
              + min
              + " to "
              + max
              + " connections, found "
              + (size instanceof String ? "\"" + size + "\"" : size));
    }
    return Optional.of(n.intValue());
  }

  private static Object journalKey(Path file, String key) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      throw new ConfigException(file, "cannot read: " + e.getMessage());
    }
    return parse(file, text).get(List.of("journal", key));
  }

  /**
   * Creates a random token (32 bytes from {@link SecureRandom}, base64url, prefixed {@value
   * #TOKEN_PREFIX}), appends its hash, role and namespaces to {@code file} (creating it if missing)
   * atomically, and returns the token. The token itself is not stored.
   *
   * @param id the id to store, or empty for one derived from the hash
   * @throws ConfigException if the file is invalid or already has a token with that id
   */
  public static IssuedToken addToken(
      Path file, Role role, List<Grant> grants, Optional<String> id) {
    byte[] raw = new byte[TOKEN_BYTES];
    RANDOM.nextBytes(raw);
    String token = TOKEN_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    String hash = Credential.hashHex(token);
    String tokenId = id.orElse("t-" + hash.substring(0, 12));
    Credential credential = new Credential(tokenId, hash, role, grants);
    ServerConfig existing = load(file);
    try {
      existing.withCredentials(
          concat(existing.credentials(), credential)); // rejects a duplicate id
    } catch (IllegalArgumentException e) {
      throw new ConfigException(file, "a token with id '" + tokenId + "' already exists");
    }
    String text = readText(file);
    StringBuilder out = new StringBuilder(text);
    if (!text.isEmpty() && !text.endsWith("\n")) {
      out.append('\n');
    }
    if (!text.isEmpty()) {
      out.append('\n');
    }
    out.append("[[tokens]]\n")
        .append("id = \"")
        .append(tokenId)
        .append("\"\n")
        .append("sha256 = \"")
        .append(hash)
        .append("\"\n")
        .append("role = \"")
        .append(role.label())
        .append("\"\nnamespaces = [");
    for (int i = 0; i < grants.size(); i++) {
      out.append(i == 0 ? "\"" : ", \"").append(grants.get(i)).append('"');
    }
    out.append("]\n");
    writeAtomically(file, out.toString());
    return new IssuedToken(tokenId, token);
  }

  private static final Pattern TOKENS_HEADER =
      Pattern.compile("^\\s*\\[\\[\\s*tokens\\s*]]\\s*(#.*)?$");
  private static final Pattern TABLE_HEADER = Pattern.compile("^\\s*\\[.*$");

  /**
   * Removes the token {@code id} from {@code file}, atomically, keeping every other line (comments
   * included). A server watching the file stops accepting the token at its next check.
   *
   * @return the credential removed
   * @throws ConfigException if the file is invalid, holds no token {@code id}, or holds it in a
   *     form other than a {@code [[tokens]]} table of its own (then it names the line to remove by
   *     hand)
   */
  public static Credential revokeToken(Path file, String id) {
    ServerConfig before = load(file); // validates, and hashes any plain-text token first
    List<Credential> kept = new ArrayList<>(before.credentials());
    int index = -1;
    for (int i = 0; i < kept.size(); i++) {
      if (kept.get(i).id().equals(id)) {
        index = i;
      }
    }
    if (index < 0) {
      throw new ConfigException(
          file, "no token with id '" + id + "' (loci token list shows the ids)");
    }
    Credential gone = kept.remove(index);
    String text = readText(file);
    TomlTable table = parse(file, text).getArray("tokens").getTable(index);
    int idLine = table.inputPositionOf(List.of("id")).line() - 1;
    List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
    int start = idLine;
    while (start >= 0 && !TABLE_HEADER.matcher(lines.get(start)).matches()) {
      start--;
    }
    if (start < 0 || !TOKENS_HEADER.matcher(lines.get(start)).matches()) {
      throw new ConfigException(
          file,
          "line "
              + (idLine + 1)
              + ": token '"
              + id
              + "' is not in a [[tokens]] table of its own; remove it by hand");
    }
    int end = idLine + 1;
    while (end < lines.size() && !TABLE_HEADER.matcher(lines.get(end)).matches()) {
      end++;
    }
    // Keep the comments and blank lines that precede the next table: they belong to it.
    while (end > idLine + 1 && isBlankOrComment(lines.get(end - 1))) {
      end--;
    }
    while (end < lines.size() && lines.get(end).isBlank()) {
      end++;
    }
    lines.subList(start, end).clear();
    String after = String.join("\n", lines);
    List<Credential> check;
    try {
      check = read(file, parse(file, after)).credentials();
    } catch (IllegalArgumentException | dev.loci.InvalidRequestException e) {
      check = List.of(gone); // anything but what is expected
    }
    if (!check.equals(kept)) {
      throw new ConfigException(
          file,
          "line "
              + (start + 1)
              + ": could not remove token '"
              + id
              + "' cleanly; remove it by hand");
    }
    writeAtomically(file, after);
    return gone;
  }

  private static boolean isBlankOrComment(String line) {
    String t = line.strip();
    return t.isEmpty() || t.startsWith("#");
  }

  private static String readText(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      throw new ConfigException(file, "cannot read: " + e.getMessage());
    }
  }

  private static List<Credential> concat(List<Credential> list, Credential c) {
    List<Credential> all = new ArrayList<>(list);
    all.add(c);
    return all;
  }

  private static TomlParseResult parse(Path file, String text) {
    TomlParseResult toml = Toml.parse(text);
    if (toml.hasErrors()) {
      var e = toml.errors().get(0);
      throw new ConfigException(
          file, "line " + e.position().line() + ": not valid TOML: " + e.getMessage());
    }
    return toml;
  }

  private static final Pattern PLAIN_TOKEN =
      Pattern.compile("^(\\s*)token\\s*=\\s*(\"[^\"]*\"|'[^']*')(.*)$");

  /** Replaces each {@code token = "..."} line of a {@code [[tokens]]} entry with its hash. */
  private static String hashPlaintextTokens(Path file, String text, TomlParseResult toml) {
    TomlArray tokens = toml.getArray("tokens");
    if (tokens == null) {
      return text;
    }
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < tokens.size(); i++) {
      if (!(tokens.get(i) instanceof TomlTable t) || t.get(List.of("token")) == null) {
        continue;
      }
      if (!(t.get(List.of("token")) instanceof String token) || token.isBlank()) {
        throw new ConfigException(file, "tokens[" + i + "].token: expected a non-empty string");
      }
      if (t.get(List.of("sha256")) != null) {
        throw new ConfigException(file, "tokens[" + i + "]: give either token or sha256, not both");
      }
      TomlPosition pos = t.inputPositionOf(List.of("token"));
      Matcher m = PLAIN_TOKEN.matcher(lines[pos.line() - 1]);
      if (!m.matches()) {
        throw new ConfigException(
            file,
            "line "
                + pos.line()
                + ": write the plain-text token as 'token = \"...\"' on a line of its own, so it"
                + " can be replaced by its hash");
      }
      lines[pos.line() - 1] =
          m.group(1) + "sha256 = \"" + Credential.hashHex(token) + "\"" + m.group(3);
    }
    return String.join("\n", lines);
  }

  private static ServerConfig read(Path file, TomlParseResult toml) {
    ServerConfig c = ServerConfig.defaults();
    TomlTable server = table(toml, "server");
    if (server != null) {
      c = c.withHost(string(server, "server.host", "host").orElse(c.host()));
      Optional<Long> port = integer(server, "server.port", "port");
      if (port.isPresent()) {
        c = c.withPort(Math.toIntExact(Math.min(port.get(), Integer.MAX_VALUE)));
      }
      c =
          c.withNetwork(
              cidrs(strings(server, "server.allowed_ips", "allowed_ips")),
              cidrs(strings(server, "server.trusted_proxies", "trusted_proxies")));
    }
    TomlTable limits = table(toml, "limits");
    if (limits != null) {
      long dflt =
          integer(limits, "limits.body_bytes", "body_bytes")
              .orElse(ServerConfig.BodyLimits.DEFAULT_BYTES);
      Map<String, Long> byPrefix = new LinkedHashMap<>();
      if (limits.get(List.of("body_bytes_by_prefix")) instanceof TomlTable prefixes) {
        for (String key : prefixes.keySet()) {
          byPrefix.put(
              key,
              integer(prefixes, "limits.body_bytes_by_prefix.\"" + key + "\"", key).orElseThrow());
        }
      }
      c = c.withBodyLimits(new ServerConfig.BodyLimits(dflt, byPrefix));
      c = c.withLimits(LimitsTable.read(limits));
    }
    TomlTable rate = table(toml, "rate_limit");
    if (rate != null) {
      Object perSecond = rate.get(List.of("per_second"));
      if (!(perSecond instanceof Number n)) {
        throw new IllegalArgumentException("rate_limit.per_second: expected a number");
      }
      long burst =
          integer(rate, "rate_limit.burst", "burst")
              .orElse((long) Math.max(1, Math.ceil(n.doubleValue())));
      c =
          c.withRateLimit(
              new ServerConfig.RateLimit(n.doubleValue(), (int) Math.min(burst, 1_000_000)));
    }
    TomlArray tokens = toml.getArray("tokens");
    if (tokens != null) {
      List<Credential> credentials = new ArrayList<>();
      for (int i = 0; i < tokens.size(); i++) {
        if (!(tokens.get(i) instanceof TomlTable t)) {
          throw new IllegalArgumentException("tokens[" + i + "]: expected a [[tokens]] table");
        }
        String at = "tokens[" + i + "].";
        String id = string(t, at + "id", "id").orElseThrow(() -> missing(at + "id"));
        String sha = string(t, at + "sha256", "sha256").orElseThrow(() -> missing(at + "sha256"));
        Role role = Role.of(string(t, at + "role", "role").orElseThrow(() -> missing(at + "role")));
        List<Grant> grants = new ArrayList<>();
        for (String g : strings(t, at + "namespaces", "namespaces")) {
          grants.add(Grant.of(g));
        }
        credentials.add(new Credential(id, sha, role, grants));
      }
      c = c.withCredentials(credentials);
    }
    return c;
  }

  private static IllegalArgumentException missing(String key) {
    return new IllegalArgumentException(key + ": missing");
  }

  private static TomlTable table(TomlTable t, String key) {
    Object v = t.get(List.of(key));
    if (v != null && !(v instanceof TomlTable)) {
      throw new IllegalArgumentException(key + ": expected a table");
    }
    return (TomlTable) v;
  }

  private static Optional<String> string(TomlTable t, String name, String key) {
    Object v = t.get(List.of(key));
    if (v != null && !(v instanceof String)) {
      throw new IllegalArgumentException(name + ": expected a string, found " + v);
    }
    return Optional.ofNullable((String) v);
  }

  private static Optional<Long> integer(TomlTable t, String name, String key) {
    Object v = t.get(List.of(key));
    if (v != null && !(v instanceof Long)) {
      throw new IllegalArgumentException(name + ": expected an integer, found " + v);
    }
    return Optional.ofNullable((Long) v);
  }

  private static List<String> strings(TomlTable t, String name, String key) {
    Object v = t.get(List.of(key));
    if (v == null) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    if (v instanceof TomlArray a) {
      for (int i = 0; i < a.size(); i++) {
        if (!(a.get(i) instanceof String s)) {
          throw new IllegalArgumentException(name + ": expected an array of strings");
        }
        out.add(s);
      }
      return out;
    }
    throw new IllegalArgumentException(name + ": expected an array of strings");
  }

  private static List<Cidr> cidrs(List<String> texts) {
    List<Cidr> out = new ArrayList<>();
    texts.forEach(s -> out.add(Cidr.of(s)));
    return out;
  }

  /** Writes to a temporary file beside {@code file}, fsyncs, renames over it, fsyncs the dir. */
  private static void writeAtomically(Path file, String text) {
    try {
      Directories.replace(file, text.getBytes(StandardCharsets.UTF_8), ".tmp");
    } catch (IOException e) {
      throw new ConfigException(file, "cannot write: " + e.getMessage());
    }
  }
}
