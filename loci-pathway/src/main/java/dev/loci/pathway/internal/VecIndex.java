package dev.loci.pathway.internal;

import dev.loci.pathway.PathwayVec;
import java.util.Arrays;
import java.util.PriorityQueue;

/**
 * The head versions of one namespace as a flat array of unit vectors, for exact cosine search:
 * {@code query_by_vec} scores every head with one 32-float dot product over contiguous memory and
 * keeps the best {@code k} in a bounded heap, where a plain scan would walk the trace objects,
 * recompute both norms per trace and sort everything. Removal moves the last slot into the hole.
 *
 * <p>Not thread-safe: the layer changes it under the engine's exclusive access and searches it
 * under shared access.
 */
final class VecIndex {
  private static final int DIM = PathwayVec.DIMENSION;

  private float[] vectors = new float[DIM * 16];
  private String[] uids = new String[16];
  private boolean[] retired = new boolean[16];
  private int size;
  private final StringSlots slots = new StringSlots();

  int size() {
    return size;
  }

  /** Adds or replaces the vector of {@code uid}. */
  void put(String uid, PathwayVec vec, boolean isRetired) {
    int s = slots.get(uid, uids);
    if (s < 0) {
      if (size == uids.length) {
        int cap = uids.length + (uids.length >> 1); // grow by half: less slack than doubling
        vectors = Arrays.copyOf(vectors, cap * DIM);
        uids = Arrays.copyOf(uids, cap);
        retired = Arrays.copyOf(retired, cap);
      }
      s = size++;
      uids[s] = uid;
      slots.put(uid, s, uids);
    }
    unit(vec, vectors, s * DIM);
    retired[s] = isRetired;
  }

  /** Removes {@code uid} if present. */
  void remove(String uid) {
    int slot = slots.get(uid, uids);
    if (slot < 0) {
      return;
    }
    slots.remove(uid, uids);
    int last = --size;
    if (slot != last) {
      System.arraycopy(vectors, last * DIM, vectors, slot * DIM, DIM);
      uids[slot] = uids[last];
      retired[slot] = retired[last];
      slots.move(uids[slot], slot, uids);
    }
    uids[last] = null;
  }

  void retire(String uid) {
    int slot = slots.get(uid, uids);
    if (slot >= 0) {
      retired[slot] = true;
    }
  }

  void clear() {
    Arrays.fill(uids, 0, size, null);
    size = 0;
    slots.clear();
  }

  /**
   * Offers every head to {@code best}: the cosine of its vector to {@code query}, a unit vector,
   * with {@code source} as the hits' owner.
   */
  void search(float[] query, boolean includeRetired, Best best, Object source) {
    float[] v = vectors;
    for (int s = 0, o = 0; s < size; s++, o += DIM) {
      if (retired[s] && !includeRetired) {
        continue;
      }
      float a = 0;
      float b = 0;
      float c = 0;
      float d = 0;
      for (int i = 0; i < DIM; i += 4) {
        a += v[o + i] * query[i];
        b += v[o + i + 1] * query[i + 1];
        c += v[o + i + 2] * query[i + 2];
        d += v[o + i + 3] * query[i + 3];
      }
      best.offer((a + b) + (c + d), uids[s], source);
    }
  }

  /**
   * Writes the unit vector of {@code vec} into {@code out} at {@code offset}; all zeros stay zeros.
   *
   * @return false if {@code vec} is all zeros
   */
  static boolean unit(PathwayVec vec, float[] out, int offset) {
    return unit(vec::get, out, offset);
  }

  /** As {@link #unit(PathwayVec, float[], int)}, for a vector read by bucket index. */
  static boolean unit(IntToFloat vec, float[] out, int offset) {
    double norm = 0;
    for (int i = 0; i < DIM; i++) {
      norm += (double) vec.get(i) * vec.get(i);
    }
    norm = Math.sqrt(norm);
    for (int i = 0; i < DIM; i++) {
      out[offset + i] = norm == 0 ? 0f : (float) (vec.get(i) / norm);
    }
    return norm != 0;
  }

  /** A vector's values by bucket index. */
  @FunctionalInterface
  interface IntToFloat {
    float get(int index);
  }

  /**
   * The best {@code k} offers across any number of indexes: highest score first, ties broken by
   * uid. Keeps a bounded min-heap and allocates only for an offer that enters it.
   */
  static final class Best {
    private final int k;
    private final PriorityQueue<Hit> heap;

    Best(int k) {
      this.k = k;
      this.heap = new PriorityQueue<>(k + 1, Best::worseFirst);
    }

    void offer(float score, String uid, Object source) {
      if (heap.size() == k) {
        Hit worst = heap.peek();
        if (score < worst.score || score == worst.score && uid.compareTo(worst.uid) >= 0) {
          return;
        }
        heap.poll();
      }
      heap.add(new Hit(score, uid, source));
    }

    /** The hits, best first. */
    Hit[] sorted() {
      Hit[] out = heap.toArray(new Hit[0]);
      Arrays.sort(out, (x, y) -> worseFirst(y, x));
      return out;
    }

    private static int worseFirst(Hit x, Hit y) {
      int c = Float.compare(x.score, y.score);
      return c != 0 ? c : y.uid.compareTo(x.uid);
    }
  }

  /**
   * One search result.
   *
   * @param source the index (or other owner) the uid belongs to, so callers can resolve it
   */
  record Hit(float score, String uid, Object source) {}
}
