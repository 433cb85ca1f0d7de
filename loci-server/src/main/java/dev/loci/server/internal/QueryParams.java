package dev.loci.server.internal;

import dev.loci.server.spi.Exchange;
import dev.loci.server.spi.HttpProblem;
import java.util.Optional;
import java.util.Set;

/** How routes read query parameters: each failure is a 400 naming the parameter. */
final class QueryParams {
  private QueryParams() {}

  /**
   * Checks that every query parameter given is one of {@code allowed}.
   *
   * @throws HttpProblem 400 naming the first unknown parameter
   */
  static void allowOnly(Exchange ex, Set<String> allowed) {
    for (String name : ex.queryNames()) {
      if (!allowed.contains(name)) {
        throw HttpProblem.invalidField(
            name,
            name
                + ": unknown query parameter; expected only "
                + String.join(", ", allowed.stream().sorted().toList()));
      }
    }
  }

  /**
   * A required parameter.
   *
   * @throws HttpProblem 400 naming {@code name} if it is absent
   */
  static String require(Exchange ex, String name) {
    return ex.query(name)
        .orElseThrow(() -> HttpProblem.invalidField(name, name + ": required, found nothing"));
  }

  /**
   * A boolean parameter: absent is false.
   *
   * @throws HttpProblem 400 naming {@code name} if it is not {@code true} or {@code false}
   */
  static boolean flag(Exchange ex, String name) {
    return flag(ex.query(name).orElse(null), name);
  }

  /**
   * Parses a boolean query parameter: absent ({@code null}) is false.
   *
   * @throws HttpProblem 400 naming {@code field} if it is not {@code true} or {@code false}
   */
  static boolean flag(String value, String field) {
    if (value == null || value.equals("false")) {
      return false;
    }
    if (value.equals("true")) {
      return true;
    }
    throw HttpProblem.invalidField(
        field, field + ": expected true or false, found '" + value + "'");
  }

  /**
   * An integer parameter, if given.
   *
   * @throws HttpProblem 400 naming {@code name} if it is not an integer
   */
  static Optional<Integer> integer(Exchange ex, String name) {
    return ex.query(name).map(v -> integer(v, name));
  }

  /**
   * Parses an integer.
   *
   * @throws HttpProblem 400 naming {@code field} if {@code v} is not one
   */
  static int integer(String v, String field) {
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw HttpProblem.invalidField(field, field + ": expected an integer, found '" + v + "'");
    }
  }
}
