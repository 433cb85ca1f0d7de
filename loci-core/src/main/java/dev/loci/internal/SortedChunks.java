package dev.loci.internal;

import java.util.AbstractCollection;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A sorted set of distinct elements (by a comparator) kept in arrays of at most {@value #CHUNK}
 * elements, for the trace store's listing order: nearly every insert is a new greatest element (ids
 * and times grow), which here appends to the last array, where a red-black tree walked its right
 * spine, rebalanced and allocated an entry per element. Inserting elsewhere shifts at most one
 * array, and splits it when full. Iterates in order, also from any element on ({@link #tailFrom}).
 *
 * <p>Not thread-safe: the trace store changes it under the engine's exclusive state lock and reads
 * it under the shared one.
 */
final class SortedChunks<T> extends AbstractCollection<T> {
  static final int CHUNK = 512;

  private final Comparator<? super T> order;
  private Object[][] chunks = new Object[4][];
  private int[] counts = new int[4];
  private int chunkCount;
  private int size;

  SortedChunks(Comparator<? super T> order) {
    this.order = order;
  }

  @Override
  public int size() {
    return size;
  }

  /** The greatest element. */
  T last() {
    if (size == 0) {
      throw new NoSuchElementException();
    }
    return element(chunkCount - 1, counts[chunkCount - 1] - 1);
  }

  /**
   * Adds {@code t}, or replaces the element equal to it by the comparator; returns whether none was
   * equal.
   */
  @Override
  public boolean add(T t) {
    if (chunkCount == 0) {
      insertChunk(0, new Object[CHUNK]);
    }
    int c = chunkFor(t);
    int i = indexIn(c, t);
    if (i >= 0) {
      chunks[c][i] = t;
      return false;
    }
    i = -i - 1;
    if (counts[c] == CHUNK) {
      if (c == chunkCount - 1 && i == CHUNK) { // a new greatest element: start the next array
        insertChunk(chunkCount, new Object[CHUNK]);
        c++;
        i = 0;
      } else {
        Object[] upper = new Object[CHUNK];
        int half = CHUNK / 2;
        System.arraycopy(chunks[c], half, upper, 0, CHUNK - half);
        Arrays.fill(chunks[c], half, CHUNK, null);
        counts[c] = half;
        insertChunk(c + 1, upper);
        counts[c + 1] = CHUNK - half;
        if (i > half) {
          c++;
          i -= half;
        }
      }
    }
    Object[] chunk = chunks[c];
    System.arraycopy(chunk, i, chunk, i + 1, counts[c] - i);
    chunk[i] = t;
    counts[c]++;
    size++;
    return true;
  }

  /** Removes the element equal to {@code o} by the comparator, if any. */
  @Override
  @SuppressWarnings("unchecked")
  public boolean remove(Object o) {
    if (size == 0) {
      return false;
    }
    T t = (T) o;
    int c = chunkFor(t);
    int i = indexIn(c, t);
    if (i < 0) {
      return false;
    }
    Object[] chunk = chunks[c];
    System.arraycopy(chunk, i + 1, chunk, i, counts[c] - i - 1);
    chunk[--counts[c]] = null;
    size--;
    if (counts[c] == 0) {
      System.arraycopy(chunks, c + 1, chunks, c, chunkCount - c - 1);
      System.arraycopy(counts, c + 1, counts, c, chunkCount - c - 1);
      chunks[--chunkCount] = null;
    }
    return true;
  }

  @Override
  public void clear() {
    chunks = new Object[4][];
    counts = new int[4];
    chunkCount = 0;
    size = 0;
  }

  @Override
  public Iterator<T> iterator() {
    return new Cursor(0, 0);
  }

  /** The elements greater than {@code after}, in order. */
  Iterable<T> tailFrom(T after) {
    if (size == 0) {
      return this;
    }
    int c = chunkFor(after);
    int i = indexIn(c, after);
    int from = i >= 0 ? i + 1 : -i - 1;
    return () -> new Cursor(c, from);
  }

  /**
   * The first array whose greatest element is not less than {@code t}, or the last array if every
   * element is less.
   */
  private int chunkFor(T t) {
    int lo = 0;
    int hi = chunkCount - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (order.compare(element(mid, counts[mid] - 1), t) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Where {@code t} is in array {@code c}, or {@code -(insertion point) - 1}. */
  private int indexIn(int c, T t) {
    int n = counts[c];
    if (n > 0 && order.compare(element(c, n - 1), t) < 0) {
      return -n - 1; // past the greatest: the usual insert, without a search
    }
    int lo = 0;
    int hi = n - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int cmp = order.compare(element(c, mid), t);
      if (cmp < 0) {
        lo = mid + 1;
      } else if (cmp > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -lo - 1;
  }

  private void insertChunk(int at, Object[] chunk) {
    if (chunkCount == chunks.length) {
      chunks = Arrays.copyOf(chunks, chunkCount * 2);
      counts = Arrays.copyOf(counts, chunkCount * 2);
    }
    System.arraycopy(chunks, at, chunks, at + 1, chunkCount - at);
    System.arraycopy(counts, at, counts, at + 1, chunkCount - at);
    chunks[at] = chunk;
    counts[at] = 0;
    chunkCount++;
  }

  @SuppressWarnings("unchecked")
  private T element(int c, int i) {
    return (T) chunks[c][i];
  }

  /** Iterates from element {@code i} of array {@code c}; the set must not change meanwhile. */
  private final class Cursor implements Iterator<T> {
    private int c;
    private int i;

    Cursor(int c, int i) {
      this.c = c;
      this.i = i;
      skipEnded();
    }

    private void skipEnded() {
      while (c < chunkCount && i >= counts[c]) {
        c++;
        i = 0;
      }
    }

    @Override
    public boolean hasNext() {
      return c < chunkCount;
    }

    @Override
    public T next() {
      if (c >= chunkCount) {
        throw new NoSuchElementException();
      }
      T t = element(c, i++);
      skipEnded();
      return t;
    }
  }
}
