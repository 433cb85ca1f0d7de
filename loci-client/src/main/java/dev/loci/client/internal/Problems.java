package dev.loci.client.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loci.ConflictException;
import dev.loci.InvalidRequestException;
import dev.loci.LimitExceededException;
import dev.loci.LociException;
import dev.loci.NotFoundException;
import dev.loci.StaleVersionException;
import dev.loci.StorageException;
import dev.loci.client.RemoteException;
import dev.loci.spi.JournalUnavailableException;
import java.io.IOException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a problem response ({@code application/problem+json}) back into the exception the embedded
 * API throws for the same failure, so that code written against an embedded instance handles a
 * remote one unchanged: the server's translation (loci-server's {@code Problems}) read in reverse,
 * by the stable problem {@code type}. Stateless.
 */
public final class Problems {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** What the server adds to a stale version's message for HTTP callers. */
  private static final String STALE_HINT = " (send its current ETag in If-Match)";

  private static final Pattern LIMIT = Pattern.compile("^(.*) \\(limit ([^()]+)\\)$");

  private Problems() {}

  /**
   * The exception for one failed response.
   *
   * @param status the HTTP status
   * @param body the response body, a problem document unless a proxy answered
   * @param record the record the request named, for a stale-version failure
   * @param expected the version the request was conditional on, if it was
   */
  public static LociException of(
      int status, String body, String record, Optional<String> expected) {
    JsonNode p;
    try {
      p = MAPPER.readTree(body);
    } catch (IOException e) {
      p = null;
    }
    if (p == null || !p.isObject() || !p.hasNonNull("type")) {
      return new RemoteException(
          status, "not-a-problem", "the server answered " + status + ": " + shorten(body), none());
    }
    // the type is a URI such as https://loci.dev/problems/not-found; its last segment is the name
    String uri = p.path("type").asText();
    String type = uri.substring(uri.lastIndexOf('/') + 1);
    String detail = p.path("detail").asText("");
    Optional<String> field =
        p.hasNonNull("field") ? Optional.of(p.get("field").asText()) : Optional.empty();
    String message = field.map(f -> strip(detail, f)).orElse(detail);
    return switch (type) {
      case "invalid-field" ->
          field.isPresent()
              ? new InvalidRequestException(field.get(), message)
              : remote(status, type, detail, field);
      case "limit-exceeded" -> limit(status, field.orElse("body"), message);
      case "not-found" ->
          field.isPresent()
              ? new NotFoundException(field.get(), message)
              : remote(status, type, detail, field);
      case "precondition-failed" ->
          new StaleVersionException(
              detail.replace(STALE_HINT, ""), record, expected.orElse("*"), "unknown");
      case "conflict" -> new ConflictException(detail);
      case "journal-unavailable" -> new JournalUnavailableException(detail, null);
      case "storage-unavailable" -> new StorageException(detail);
      default -> remote(status, type, detail, field);
    };
  }

  private static LociException limit(int status, String field, String message) {
    Matcher m = LIMIT.matcher(message);
    return m.matches()
        ? new LimitExceededException(field, m.group(2), status == 413, m.group(1))
        : new LimitExceededException(field, "unknown", status == 413, message);
  }

  private static RemoteException remote(
      int status, String type, String detail, Optional<String> field) {
    return new RemoteException(status, type, detail, field);
  }

  /** The embedded message without the {@code field: } prefix its exception adds again. */
  private static String strip(String detail, String field) {
    String prefix = field + ": ";
    return detail.startsWith(prefix) ? detail.substring(prefix.length()) : detail;
  }

  private static Optional<String> none() {
    return Optional.empty();
  }

  private static String shorten(String s) {
    return s.length() > 200 ? s.substring(0, 200) + "..." : s;
  }
}
