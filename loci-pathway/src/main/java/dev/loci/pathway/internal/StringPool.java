package dev.loci.pathway.internal;

import java.util.Arrays;

/**
 * The strings that repeat across the packed traces of one shelf ({@link TraceCodec}), each held
 * once and named by its index in {@link #table()}. Grows until the shelf is repacked (after an
 * erase, so that no erased text stays behind in it).
 *
 * <p>Append-only: a slot, once written, never changes, so a table taken earlier stays valid for the
 * traces packed before it was taken (a snapshot reads them later, without access). Not thread-safe
 * otherwise: {@link #id} runs under the engine's exclusive access.
 */
final class StringPool {
  private String[] strings = new String[64];
  private int size;
  private final StringSlots ids = new StringSlots();

  /** The number of {@code s}, adding it if new. */
  int id(String s) {
    int id = ids.get(s, strings);
    if (id < 0) {
      if (size == strings.length) {
        strings = Arrays.copyOf(strings, size + (size >> 1));
      }
      id = size++;
      strings[id] = s;
      ids.put(s, id, strings);
    }
    return id;
  }

  /** The strings by number; slots past the current count are empty or filled later. */
  String[] table() {
    return strings;
  }
}
