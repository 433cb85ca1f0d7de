package dev.loci;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One page of an ordered listing, with an opaque cursor for the next page.
 *
 * @param items the items on this page, in listing order
 * @param nextCursor pass it back to get the following page; empty on the last page
 * @param <T> the item type
 */
public record Page<T>(List<T> items, Optional<String> nextCursor) {
  /** Copies the items. */
  public Page {
    items = List.copyOf(items);
    Objects.requireNonNull(nextCursor, "nextCursor");
  }
}
