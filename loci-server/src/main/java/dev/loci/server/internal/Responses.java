package dev.loci.server.internal;

import dev.loci.Namespace;
import dev.loci.server.spi.Exchange;
import dev.loci.server.spi.HttpProblem;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * What every route set answers the same way: lists, pages, {@code Location}, entity tags and {@code
 * If-Match}.
 */
final class Responses {
  private Responses() {}

  /** {@code {"items": [...]}}, as every list of the API; {@code array} is a JSON array. */
  static void items(Exchange ex, String array) {
    ex.json(200, "{\"items\":" + array + "}");
  }

  /** {@code {"items": [...], "next_cursor": ...}}, as every page of the API. */
  static void page(Exchange ex, String array, Optional<String> nextCursor) {
    ex.json(
        200,
        "{\"items\":"
            + array
            + ",\"next_cursor\":"
            + nextCursor.map(c -> "\"" + c + "\"").orElse("null")
            + "}");
  }

  /** Sets {@code Location} to {@code /v1/ns/<ns>/<collection>/<id>}, the id URL-encoded. */
  static void location(Exchange ex, Namespace ns, String collection, String id) {
    ex.responseHeader(
        "Location",
        "/v1/ns/"
            + ns.value()
            + "/"
            + collection
            + "/"
            + URLEncoder.encode(id, StandardCharsets.UTF_8));
  }

  /** The strong entity tag of a version: the version, quoted. */
  static String etag(String version) {
    return "\"" + version + "\"";
  }

  /**
   * The version an {@code If-Match} header asks for: empty when absent or {@code *} (any current
   * version). A weak tag never matches, as RFC 9110 requires of {@code If-Match}: it is returned as
   * {@code W/}, which no version equals.
   *
   * @throws HttpProblem 400 if the header is not one entity tag or {@code *}
   */
  static Optional<String> ifMatch(Exchange ex) {
    Optional<String> header = ex.header("If-Match").map(String::strip);
    if (header.isEmpty() || header.get().equals("*")) {
      return Optional.empty();
    }
    String v = header.get();
    if (v.startsWith("W/\"")) {
      return Optional.of("W/"); // no version equals this, so the write fails with 412
    }
    if (v.length() < 2
        || !v.startsWith("\"")
        || !v.endsWith("\"")
        || v.indexOf('"', 1) != v.length() - 1) {
      throw HttpProblem.invalidField(
          "If-Match",
          "If-Match: expected one entity tag as sent in ETag (\"...\") or *, found '" + v + "'");
    }
    return Optional.of(v.substring(1, v.length() - 1));
  }
}
