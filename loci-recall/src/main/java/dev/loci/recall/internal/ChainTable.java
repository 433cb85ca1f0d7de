package dev.loci.recall.internal;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The records of one kind in a namespace of the memory graph, in the order they were first put:
 * each record's {@link Chain} in an array (a chain's ordinal is its position), found by its key
 * through an open-addressing table (linear probing) of one {@code int} per slot: the chain's
 * position + 1 in the low bits (as many as the table has slots: a table of 2^k slots holds fewer
 * than 2^k chains), and as many bits of the key's hash as are left above them (a tag), so that a
 * probe compares tags in the table and reads a chain only when they match (a probe that read every
 * chain it passed cost a few cache misses each; with 2^20 slots the tag has 12 bits, and a probe
 * passing a slot of another key reads its chain once in 4,096). The slot is found from other bits
 * of the hash than the tag holds. A linked hash map spent a 40-byte entry and a key object on each
 * record, more than the chain itself, and a restore of a million nodes spent much of its time in
 * those maps. Records are never taken out (a removal is a version), and a record's key never
 * changes (an erasure keeps ids and edges).
 *
 * <p>Subclasses look records up by their own key, without making a key object.
 *
 * <p>Not thread-safe: changed with the engine's exclusive access, read with its shared access.
 */
abstract class ChainTable<T, C extends Chain<T>> {
  private static final int GOLDEN = 0x9E3779B9;
  private static final int PRESIZE_MAX = 1 << 26; // beyond, a table grows as records come

  private Object[] chains = new Object[8];
  private int size;
  // slot s: 0 when empty, else the key's tag << bits | the chain's position + 1
  private int[] slots = new int[16];
  private int bits = 4; // the table has 2^bits slots; a slot is the top bits of the mixed hash
  private int tagMask = -1 >>> bits; // the hash's low bits that a slot keeps as its tag

  /** The hash of the key of {@code c}'s record, as the subclass computes it from a key. */
  abstract int hashOf(C c);

  /** How many records. */
  final int size() {
    return size;
  }

  /** The chain at {@code ordinal}, in the order first put. */
  @SuppressWarnings("unchecked")
  final C at(int ordinal) {
    return (C) chains[ordinal];
  }

  /** The slot a key of hash {@code h} is looked for first. */
  final int firstSlot(int h) {
    return (h * GOLDEN) >>> (32 - bits);
  }

  /** The slot after {@code slot}. */
  final int nextSlot(int slot) {
    return (slot + 1) & (slots.length - 1);
  }

  /** Whether {@code slot} is empty. */
  final boolean empty(int slot) {
    return slots[slot] == 0;
  }

  /**
   * The chain in {@code slot} if its key's hash may be {@code h} (the tags match), else null; the
   * caller compares the keys.
   */
  @SuppressWarnings("unchecked")
  final C inSlot(int slot, int h) {
    int v = slots[slot];
    return v >>> bits == (h & tagMask) ? (C) chains[(v & (slots.length - 1)) - 1] : null;
  }

  /**
   * Appends {@code c}, a chain holding its first version whose key the table does not hold, and
   * whose ordinal is {@link #size()}.
   */
  final C append(C c) {
    if (c.ordinal != size || c.isEmpty()) {
      throw new IllegalStateException("a new chain must hold a version and be numbered " + size);
    }
    if (size == chains.length) {
      chains = Arrays.copyOf(chains, size + (size >> 1) + 1);
    }
    chains[size++] = c;
    if (size * 4L > slots.length * 3L) {
      rehash(slots.length * 2);
    } else {
      place(size);
    }
    return c;
  }

  /**
   * Makes room for {@code n} records in all (at most {@value #PRESIZE_MAX}), so that appending up
   * to them does not grow the table.
   */
  final void presize(int records) {
    int n = Math.min(records, PRESIZE_MAX);
    if (n > chains.length) {
      chains = Arrays.copyOf(chains, n);
    }
    int len = slots.length;
    while (n * 4L > len * 3L && len < (1 << 29)) {
      len *= 2;
    }
    if (len != slots.length) {
      rehash(len);
    }
  }

  /** Runs {@code action} on every chain, in the order first put. */
  @SuppressWarnings("unchecked")
  final void forEachChain(Consumer<? super C> action) {
    for (int i = 0; i < size; i++) {
      action.accept((C) chains[i]);
    }
  }

  @SuppressWarnings("unchecked")
  private void place(int position) {
    int h = hashOf((C) chains[position - 1]);
    int s = firstSlot(h);
    while (!empty(s)) {
      s = nextSlot(s);
    }
    slots[s] = (h & tagMask) << bits | position;
  }

  /** Makes the table {@code len} slots (a power of two) and places every chain again. */
  private void rehash(int len) {
    slots = new int[len];
    bits = Integer.numberOfTrailingZeros(len);
    tagMask = -1 >>> bits;
    for (int p = 1; p <= size; p++) {
      place(p);
    }
  }
}
