package dev.loci;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A trace search: which namespaces, which filters, and which page. Results are ordered by creation
 * time, then uid (UUID v7 uids order by creation too), then namespace. Retired traces are left out
 * unless {@link #includeRetired()}.
 *
 * @param scope the namespace, or namespace and descendants, to search
 * @param tags every one of these tags must be on a trace for it to match
 * @param contentContains a substring the compact JSON content must contain
 * @param createdFrom only traces created at or after this instant (inclusive)
 * @param createdBefore only traces created before this instant (exclusive)
 * @param includeRetired whether retired traces match
 * @param limit the most traces on one page, 1 to {@value #MAX_LIMIT}
 * @param cursor the {@link Page#nextCursor()} of the previous page
 */
public record TraceQuery(
    NamespaceScope scope,
    List<String> tags,
    Optional<String> contentContains,
    Optional<Instant> createdFrom,
    Optional<Instant> createdBefore,
    boolean includeRetired,
    int limit,
    Optional<String> cursor) {

  /** The page size used when none is given. */
  public static final int DEFAULT_LIMIT = 100;

  /** The largest page size. */
  public static final int MAX_LIMIT = 10_000;

  /** Validates the limit and copies the tags. */
  public TraceQuery {
    Objects.requireNonNull(scope, "scope");
    tags = List.copyOf(tags);
    Objects.requireNonNull(contentContains, "contentContains");
    Objects.requireNonNull(createdFrom, "createdFrom");
    Objects.requireNonNull(createdBefore, "createdBefore");
    Objects.requireNonNull(cursor, "cursor");
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new InvalidRequestException("limit", "expected 1 to " + MAX_LIMIT + ", found " + limit);
    }
  }

  /** Starts a query over {@code scope} with no filters. */
  public static Builder in(NamespaceScope scope) {
    return new Builder(scope);
  }

  /** Starts a query over exactly {@code namespace}. */
  public static Builder in(Namespace namespace) {
    return new Builder(NamespaceScope.exactly(namespace));
  }

  /** Builds a {@link TraceQuery}; not thread-safe. */
  public static final class Builder {
    private final NamespaceScope scope;
    private final List<String> tags = new ArrayList<>();
    private Optional<String> contentContains = Optional.empty();
    private Optional<Instant> createdFrom = Optional.empty();
    private Optional<Instant> createdBefore = Optional.empty();
    private boolean includeRetired;
    private int limit = DEFAULT_LIMIT;
    private Optional<String> cursor = Optional.empty();

    private Builder(NamespaceScope scope) {
      this.scope = Objects.requireNonNull(scope, "scope");
    }

    /** Requires {@code tag} on every match. */
    public Builder tag(String tag) {
      tags.add(Objects.requireNonNull(tag, "tag"));
      return this;
    }

    /** Requires every one of {@code tags} on every match. */
    public Builder tags(List<String> tags) {
      tags.forEach(this::tag);
      return this;
    }

    /** Requires the compact JSON content to contain {@code text}. */
    public Builder contentContains(String text) {
      this.contentContains = Optional.of(text);
      return this;
    }

    /** Only traces created at or after {@code instant}. */
    public Builder createdFrom(Instant instant) {
      this.createdFrom = Optional.of(instant);
      return this;
    }

    /** Only traces created before {@code instant}. */
    public Builder createdBefore(Instant instant) {
      this.createdBefore = Optional.of(instant);
      return this;
    }

    /** Whether retired traces match. */
    public Builder includeRetired(boolean include) {
      this.includeRetired = include;
      return this;
    }

    /** The page size. */
    public Builder limit(int limit) {
      this.limit = limit;
      return this;
    }

    /** Continues after the page that returned {@code cursor}. */
    public Builder cursor(String cursor) {
      this.cursor = Optional.of(cursor);
      return this;
    }

    /** Builds the query. */
    public TraceQuery build() {
      return new TraceQuery(
          scope, tags, contentContains, createdFrom, createdBefore, includeRetired, limit, cursor);
    }
  }
}
