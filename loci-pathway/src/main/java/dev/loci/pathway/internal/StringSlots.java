package dev.loci.pathway.internal;

/**
 * A map from strings to the slots of an array that holds them, as open addressing over one {@code
 * int} array: the keys are not stored here but read from the caller's array, so an entry costs 8 to
 * 16 bytes where a {@code HashMap<String, Integer>} entry costs about 55 (a node, a boxed integer
 * and its share of the table). Linear probing, at most half full, deletion by backward shift.
 *
 * <p>Every method takes {@code keys}, the caller's array, in which slot {@code s} holds the key
 * mapped to {@code s}. Not thread-safe.
 */
final class StringSlots {
  private int[] table = new int[16]; // slot + 1; 0 is empty
  private int count;

  /** The slot of {@code key}, or -1. */
  int get(String key, String[] keys) {
    int i = indexOf(key, keys);
    return i < 0 ? -1 : table[i] - 1;
  }

  /** Maps {@code key}, which must be absent and held at {@code keys[slot]}, to {@code slot}. */
  void put(String key, int slot, String[] keys) {
    if ((count + 1) * 2 > table.length) {
      int[] old = table;
      table = new int[old.length * 2];
      for (int e : old) {
        if (e != 0) {
          insert(keys[e - 1].hashCode(), e);
        }
      }
    }
    insert(key.hashCode(), slot + 1);
    count++;
  }

  /** Maps {@code key}, present and now also held at {@code keys[slot]}, to {@code slot}. */
  void move(String key, int slot, String[] keys) {
    table[indexOf(key, keys)] = slot + 1;
  }

  /** Removes {@code key} if present; {@code keys} must still hold it at its slot. */
  void remove(String key, String[] keys) {
    int i = indexOf(key, keys);
    if (i < 0) {
      return;
    }
    count--;
    int mask = table.length - 1;
    table[i] = 0;
    for (int j = (i + 1) & mask; table[j] != 0; j = (j + 1) & mask) {
      int home = spread(keys[table[j] - 1].hashCode()) & mask;
      // the entry at j may fill the hole at i unless its home lies cyclically in (i, j]
      boolean stays = i <= j ? i < home && home <= j : i < home || home <= j;
      if (!stays) {
        table[i] = table[j];
        table[j] = 0;
        i = j;
      }
    }
  }

  void clear() {
    table = new int[16];
    count = 0;
  }

  private int indexOf(String key, String[] keys) {
    int mask = table.length - 1;
    for (int i = spread(key.hashCode()) & mask; ; i = (i + 1) & mask) {
      int e = table[i];
      if (e == 0) {
        return -1;
      }
      if (keys[e - 1].equals(key)) {
        return i;
      }
    }
  }

  private void insert(int hash, int entry) {
    int mask = table.length - 1;
    int i = spread(hash) & mask;
    while (table[i] != 0) {
      i = (i + 1) & mask;
    }
    table[i] = entry;
  }

  private static int spread(int h) {
    return (h ^ (h >>> 16)) * 0x9E3779B9;
  }
}
