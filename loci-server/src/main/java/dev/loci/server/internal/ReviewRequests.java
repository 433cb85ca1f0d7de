package dev.loci.server.internal;

import dev.loci.InvalidRequestException;
import dev.loci.govern.Reviewer;
import dev.loci.server.Role;
import dev.loci.server.spi.Exchange;
import dev.loci.server.spi.HttpProblem;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What the memory and entity routes read the same way from a review request, written once for both:
 * the reviewer a decision records, a new record's {@code status} (a candidate, or active for a
 * reviewer), a rejection's {@code reason} and a supersession's {@code by}.
 */
final class ReviewRequests {
  private ReviewRequests() {}

  /** The reviewer of {@code ex}: its token id, or {@code local} without tokens. */
  static Reviewer reviewer(Exchange ex) {
    return new Reviewer(ex.tokenId().orElse("local"));
  }

  /**
   * Writes a new record of {@code kind} ({@code "a memory"}, {@code "an entity"}) as its {@code
   * status} asks: {@code candidate} proposes it, {@code active} (reviewer role only) writes it
   * trusted at once.
   *
   * @throws HttpProblem 403 naming {@code status} if active without the reviewer role
   * @throws InvalidRequestException naming {@code status} for any other status
   */
  static <T> T created(
      Exchange ex, String kind, String status, Supplier<T> active, Supplier<T> candidate) {
    if (status.equals("active")) {
      if (!ex.allows(Role.REVIEWER)) {
        throw new HttpProblem(
            403,
            "forbidden",
            "Forbidden",
            kind
                + " written active is trusted at once: it needs the reviewer role; without"
                + " \"status\" it becomes a candidate for review",
            Optional.of("status"));
      }
      return active.get();
    }
    if (status.equals("candidate")) {
      return candidate.get();
    }
    throw new InvalidRequestException(
        "status",
        "expected candidate or active for a new "
            + kind.substring(kind.indexOf(' ') + 1)
            + ", found "
            + status);
  }

  /** The {@code reason} of a rejection or invalidation (checked by the decision). */
  static String reason(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    return ex.body().allowOnly(Set.of("reason")).string("reason").orElse(null);
  }

  /**
   * The {@code by} of a supersession: the successor's id.
   *
   * @throws InvalidRequestException naming {@code by} if absent
   */
  static String successor(Exchange ex, String kind) {
    QueryParams.allowOnly(ex, Set.of());
    return ex.body()
        .allowOnly(Set.of("by"))
        .string("by")
        .orElseThrow(
            () -> new InvalidRequestException("by", "expected the successor's " + kind + " id"));
  }
}
