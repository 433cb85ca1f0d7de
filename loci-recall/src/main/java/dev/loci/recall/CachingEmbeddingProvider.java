package dev.loci.recall;

import dev.loci.StorageException;
import dev.loci.recall.spi.EmbeddingProvider;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;

/**
 * An {@link EmbeddingProvider} that remembers every document vector of another provider in a file,
 * so embedding the same text again, in this process or a later one, costs a disk read instead of a
 * model run. Queries ({@link #embedQuery}) are passed through uncached.
 *
 * <p>Design: the file is append-only. A header (magic {@code LOCI-EMB}, format version, dimension,
 * model id, CRC-32C) is followed by fixed-size records: the SHA-256 of the model id, a zero byte
 * and the UTF-8 text; the vector as big-endian floats; the CRC-32C of both. Only the header is kept
 * beside the data in memory: an index from hash to record offset, about 100 bytes per vector;
 * vectors are read back (and their checksum checked again) when asked for. Opening scans the file:
 * a partial record at the end, or a bad checksum in the last record, is a torn write and is cut
 * off; a bad record elsewhere is skipped (its text is embedded again and appended). Because records
 * have one size, a damaged record never hides the ones after it.
 *
 * <p>New records are written when they are computed and fsynced every {@value #SYNC_BYTES} bytes,
 * on {@link #flush()} and on {@link #close()}; a crash loses at most vectors that are recomputed on
 * the next miss. One process at a time may hold a file. Thread-safe: lookups run concurrently,
 * appends are serialized, and two threads missing the same text both ask the delegate (harmless,
 * providers are deterministic) but only one record is kept.
 */
public final class CachingEmbeddingProvider implements EmbeddingProvider, AutoCloseable {
  /** The file format's name, at the start of every file. */
  public static final String MAGIC = "LOCI-EMB";

  /** The format version this class writes and the only one it reads. */
  public static final int VERSION = 1;

  private static final System.Logger LOG =
      System.getLogger(CachingEmbeddingProvider.class.getName());
  private static final int HASH = 32;

  /** The hash of an erased record: no text hashes to it (SHA-256 has no known all-zero input). */
  private static final Key ERASED = new Key(0, 0, 0, 0);

  private static final long SYNC_BYTES = 8L << 20;

  /**
   * What opening found in the file.
   *
   * @param records valid records, now in the index
   * @param skipped damaged records in the middle of the file, left in place and ignored
   * @param truncatedBytes bytes cut from the end: a torn record
   */
  public record Opened(int records, int skipped, long truncatedBytes) {}

  /** A SHA-256 as four longs. */
  private record Key(long a, long b, long c, long d) {
    static Key of(ByteBuffer buf, int at) {
      return new Key(
          buf.getLong(at), buf.getLong(at + 8), buf.getLong(at + 16), buf.getLong(at + 24));
    }
  }

  private final EmbeddingProvider delegate;
  private final Path file;
  private final FileChannel channel;
  private final int recordSize;
  private final byte[] modelPrefix;
  private final Map<Key, Long> index = new ConcurrentHashMap<>();
  private final Opened opened;
  private final AtomicLong hits = new AtomicLong();
  private final AtomicLong misses = new AtomicLong();
  private long start; // where records begin, after the header
  private long end;
  private long unsynced;
  private volatile boolean closed;

  private CachingEmbeddingProvider(EmbeddingProvider delegate, Path file) throws IOException {
    this.delegate = delegate;
    this.file = file;
    this.recordSize = HASH + 4 * delegate.dimension() + 4;
    this.modelPrefix = (delegate.modelId() + '\0').getBytes(StandardCharsets.UTF_8);
    if (!Files.exists(file) || Files.size(file) == 0) {
      create(file, header(delegate));
    }
    this.channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    try {
      this.opened = recover();
    } catch (IOException | RuntimeException e) {
      try {
        channel.close();
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /**
   * Opens the cache in {@code file} for {@code delegate}'s model, creating the file and its
   * directories if missing and repairing a torn end. Close it to fsync; it does not close {@code
   * delegate}.
   *
   * @throws IllegalArgumentException if the file caches another model or dimension
   * @throws StorageException if the file is not an embedding cache, is of a newer format version,
   *     has a damaged header, or cannot be read or written
   */
  public static CachingEmbeddingProvider open(EmbeddingProvider delegate, Path file) {
    Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(file, "file");
    try {
      return new CachingEmbeddingProvider(delegate, file);
    } catch (IOException e) {
      throw new StorageException("cannot open embedding cache " + file + ": " + e, e);
    }
  }

  /** Local when the model it caches is: a miss sends the text to it. */
  @Override
  public boolean local() {
    return delegate.local();
  }

  @Override
  public String modelId() {
    return delegate.modelId();
  }

  @Override
  public int dimension() {
    return delegate.dimension();
  }

  /** The provider whose vectors are cached. */
  public EmbeddingProvider delegate() {
    return delegate;
  }

  /** The cache file. */
  public Path file() {
    return file;
  }

  /** What opening found. */
  public Opened opened() {
    return opened;
  }

  /** How many document texts were answered from the cache since opening. */
  public long hits() {
    return hits.get();
  }

  /** How many document texts were sent to the delegate since opening. */
  public long misses() {
    return misses.get();
  }

  /** How many vectors the cache holds. */
  public int size() {
    return index.size();
  }

  /** Where a data directory keeps its vector caches: {@code <data>/cache/embeddings}. */
  public static Path directory(Path dataDir) {
    return dataDir.resolve("cache").resolve("embeddings");
  }

  /**
   * Erases the cached vectors of {@code texts}: each one's record is overwritten where it lies by
   * an erased record (a zero hash and vector under a valid checksum, which opening skips) and the
   * file is fsynced before this returns, so neither the vector nor the hash of the text stays in
   * it. Texts not cached are ignored; idempotent. The erasure of a data subject calls it.
   *
   * @return how many records were erased
   * @throws StorageException if the file cannot be written
   */
  public synchronized int forget(Collection<String> texts) {
    checkOpen();
    List<Long> at = new ArrayList<>();
    for (String t : texts) {
      Long a = index.remove(key(t));
      if (a != null) {
        at.add(a);
      }
    }
    if (at.isEmpty()) {
      return 0;
    }
    ByteBuffer erased = ByteBuffer.allocate(recordSize);
    CRC32C crc = new CRC32C();
    crc.update(erased.array(), 0, recordSize - 4);
    erased.putInt(recordSize - 4, (int) crc.getValue());
    try {
      for (long a : at) {
        ByteBuffer b = erased.duplicate();
        long p = a;
        while (b.hasRemaining()) {
          p += channel.write(b, p);
        }
      }
      channel.force(false);
    } catch (IOException e) {
      throw new StorageException("cannot erase from embedding cache " + file + ": " + e, e);
    }
    return at.size();
  }

  /**
   * Erases every cached vector: the file is cut back to its header and fsynced. For an erasure that
   * can no longer tell which texts it must forget (one completed after a crash).
   *
   * @throws StorageException if the file cannot be written
   */
  public synchronized void forgetAll() {
    checkOpen();
    index.clear();
    try {
      channel.truncate(start);
      channel.force(true);
    } catch (IOException e) {
      throw new StorageException("cannot empty embedding cache " + file + ": " + e, e);
    }
    end = start;
    unsynced = 0;
  }

  /**
   * Runs {@code erasure} ({@link #forget} or {@link #forgetAll}) on a cache file that no provider
   * of this process holds open, for an erasure in a process that does not embed: the model is read
   * from the file's header. A missing file is ignored; a file that is not a readable cache is
   * deleted (it could not have been used, and it may hold what is erased).
   *
   * @throws StorageException if the file cannot be written or deleted
   */
  public static void erase(
      Path file, java.util.function.Consumer<CachingEmbeddingProvider> erasure) {
    if (!Files.isRegularFile(file)) {
      return;
    }
    CachingEmbeddingProvider cache;
    try {
      cache = open(FileModel.of(file), file);
    } catch (IOException | RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING, "deleting unreadable embedding cache " + file + ": " + e);
      try {
        Files.deleteIfExists(file);
      } catch (IOException d) {
        throw new StorageException("cannot delete embedding cache " + file + ": " + d, d);
      }
      return;
    }
    try (cache) {
      erasure.accept(cache);
    }
  }

  /** The model a cache file's header names, standing in for it when the file is only erased. */
  private record FileModel(String modelId, int dimension) implements EmbeddingProvider {
    static FileModel of(Path file) throws IOException {
      try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ)) {
        ByteBuffer head = ByteBuffer.allocate(18 + 0xFFFF);
        while (head.hasRemaining() && c.read(head) > 0) {
          // read the header, or as much of it as there is
        }
        if (head.position() < 18) {
          throw new IOException("no embedding cache header");
        }
        int length = Short.toUnsignedInt(head.getShort(16));
        return new FileModel(
            new String(head.array(), 18, length, StandardCharsets.UTF_8), head.getInt(12));
      }
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
      throw new UnsupportedOperationException("cache " + modelId + " opened for erasure only");
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Texts already cached are read from the file; the others go to the delegate in one call, in
   * order, each distinct text once, and are appended.
   *
   * @throws StorageException if the file cannot be read or written
   * @throws IllegalStateException if closed, or if the delegate returns the wrong number or length
   *     of vectors
   */
  @Override
  public List<float[]> embedDocuments(List<String> texts) {
    checkOpen();
    float[][] out = new float[texts.size()][];
    Map<Key, List<Integer>> missing = new HashMap<>();
    List<String> missingTexts = new ArrayList<>();
    List<Key> missingKeys = new ArrayList<>();
    for (int i = 0; i < texts.size(); i++) {
      Key key = key(texts.get(i));
      Long at = index.get(key);
      float[] v = at == null ? null : read(key, at);
      if (v != null) {
        out[i] = v;
        hits.incrementAndGet();
        continue;
      }
      List<Integer> slots = missing.get(key);
      if (slots == null) {
        slots = new ArrayList<>();
        missing.put(key, slots);
        missingTexts.add(texts.get(i));
        missingKeys.add(key);
      }
      slots.add(i);
    }
    if (missingTexts.isEmpty()) {
      return List.of(out);
    }
    misses.addAndGet(missingTexts.size());
    List<float[]> computed = delegate.embedDocuments(missingTexts);
    if (computed.size() != missingTexts.size()) {
      throw new IllegalStateException(
          "embedding provider "
              + modelId()
              + " returned "
              + computed.size()
              + " vectors for "
              + missingTexts.size()
              + " texts");
    }
    for (int j = 0; j < computed.size(); j++) {
      float[] v = computed.get(j);
      if (v.length != dimension()) {
        throw new IllegalStateException(
            "embedding provider "
                + modelId()
                + " returned a vector of "
                + v.length
                + " dimensions, expected "
                + dimension());
      }
      for (int slot : missing.get(missingKeys.get(j))) {
        out[slot] = v.clone();
      }
    }
    append(missingKeys, computed);
    return List.of(out);
  }

  /** Passes the query to the delegate: queries are not cached. */
  @Override
  public float[] embedQuery(String text) {
    return delegate.embedQuery(text);
  }

  /**
   * Forces written records to disk.
   *
   * @throws StorageException if the fsync fails
   */
  public synchronized void flush() {
    if (closed || unsynced == 0) {
      return;
    }
    try {
      channel.force(false);
      unsynced = 0;
    } catch (IOException e) {
      throw new StorageException("cannot fsync embedding cache " + file + ": " + e, e);
    }
  }

  /**
   * Forces written records to disk and closes the file. Idempotent. The delegate stays open.
   *
   * @throws StorageException if the fsync fails (the file is closed all the same)
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    try (FileChannel c = channel) {
      flush();
    } catch (IOException e) {
      throw new StorageException("cannot close embedding cache " + file + ": " + e, e);
    } finally {
      closed = true;
    }
  }

  @Override
  public String toString() {
    return delegate + " cached in " + file;
  }

  // ---------------------------------------------------------------- records

  private Key key(String text) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
    sha.update(modelPrefix);
    return Key.of(ByteBuffer.wrap(sha.digest(text.getBytes(StandardCharsets.UTF_8))), 0);
  }

  /** The vector at {@code at}, or null if the record no longer checks out (it is re-embedded). */
  private float[] read(Key key, long at) {
    ByteBuffer buf = ByteBuffer.allocate(recordSize);
    try {
      while (buf.hasRemaining()) {
        if (channel.read(buf, at + buf.position()) < 0) {
          break;
        }
      }
    } catch (IOException e) {
      throw new StorageException("cannot read embedding cache " + file + ": " + e, e);
    }
    if (buf.hasRemaining() || !valid(buf, 0) || !Key.of(buf, 0).equals(key)) {
      LOG.log(System.Logger.Level.WARNING, "embedding cache " + file + ": bad record at " + at);
      index.remove(key, at);
      return null;
    }
    float[] v = new float[dimension()];
    buf.position(HASH);
    buf.asFloatBuffer().get(v);
    return v;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("embedding cache " + file + " is closed");
    }
  }

  private synchronized void append(List<Key> keys, List<float[]> vectors) {
    checkOpen();
    ByteBuffer buf = ByteBuffer.allocate(recordSize * keys.size());
    List<Key> added = new ArrayList<>();
    for (int j = 0; j < keys.size(); j++) {
      Key k = keys.get(j);
      if (index.containsKey(k)) {
        continue;
      }
      int start = buf.position();
      buf.putLong(k.a()).putLong(k.b()).putLong(k.c()).putLong(k.d());
      for (float x : vectors.get(j)) {
        buf.putFloat(x);
      }
      CRC32C crc = new CRC32C();
      crc.update(buf.array(), start, recordSize - 4);
      buf.putInt((int) crc.getValue());
      added.add(k);
    }
    buf.flip();
    long at = end;
    try {
      while (buf.hasRemaining()) {
        at += channel.write(buf, at);
      }
    } catch (IOException e) {
      throw new StorageException("cannot append to embedding cache " + file + ": " + e, e);
    }
    for (int j = 0; j < added.size(); j++) {
      index.put(added.get(j), end + (long) j * recordSize);
    }
    unsynced += at - end;
    end = at;
    if (unsynced >= SYNC_BYTES) {
      flush();
    }
  }

  private boolean valid(ByteBuffer buf, int start) {
    CRC32C crc = new CRC32C();
    crc.update(buf.array(), start, recordSize - 4);
    return (int) crc.getValue() == buf.getInt(start + recordSize - 4);
  }

  // ---------------------------------------------------------------- opening

  private static byte[] header(EmbeddingProvider p) {
    byte[] model = p.modelId().getBytes(StandardCharsets.UTF_8);
    ByteBuffer buf = ByteBuffer.allocate(8 + 4 + 4 + 2 + model.length + 4);
    buf.put(MAGIC.getBytes(StandardCharsets.US_ASCII)).putInt(VERSION).putInt(p.dimension());
    buf.putShort((short) model.length).put(model);
    CRC32C crc = new CRC32C();
    crc.update(buf.array(), 0, buf.position());
    buf.putInt((int) crc.getValue());
    return buf.array();
  }

  /** Writes a new file with just the header: temp name, fsync, atomic rename, fsync directory. */
  private static void create(Path file, byte[] header) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path tmp = dir.resolve(file.getFileName() + ".tmp");
    try (FileChannel c =
        FileChannel.open(
            tmp,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      c.write(ByteBuffer.wrap(header));
      c.force(true);
    }
    try {
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
    }
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    } catch (IOException e) {
      LOG.log(System.Logger.Level.DEBUG, "cannot fsync directory " + dir + ": " + e);
    }
  }

  private Opened recover() throws IOException {
    long size = channel.size();
    ByteBuffer head = ByteBuffer.allocate((int) Math.min(size, 18 + 0xFFFF + 4));
    readFully(head, 0);
    long at = checkHeader(head);
    start = at;
    int records = 0;
    int skipped = 0;
    long badRunStart = -1;
    int badRun = 0;
    int perChunk = Math.max(1, (1 << 20) / recordSize);
    ByteBuffer chunk = ByteBuffer.allocate(perChunk * recordSize);
    while (at + recordSize <= size) {
      int n = (int) Math.min(perChunk, (size - at) / recordSize);
      chunk.clear().limit(n * recordSize);
      readFully(chunk, at);
      for (int r = 0; r < n; r++, at += recordSize) {
        if (valid(chunk, r * recordSize)) {
          Key k = Key.of(chunk, r * recordSize);
          if (!k.equals(ERASED)) {
            index.put(k, at);
            records++;
          }
          badRunStart = -1;
          badRun = 0;
        } else {
          skipped++;
          badRunStart = badRunStart < 0 ? at : badRunStart;
          badRun++;
        }
      }
    }
    long cut = at;
    if (badRunStart >= 0) {
      cut = badRunStart;
      skipped -= badRun;
    }
    long truncated = size - cut;
    if (truncated > 0) {
      channel.truncate(cut);
      channel.force(false);
      LOG.log(
          System.Logger.Level.WARNING,
          "embedding cache " + file + ": cut a torn end of " + truncated + " bytes at " + cut);
    }
    if (skipped > 0) {
      LOG.log(
          System.Logger.Level.WARNING,
          "embedding cache " + file + ": skipped " + skipped + " damaged records");
    }
    end = cut;
    return new Opened(records, skipped, truncated);
  }

  /** Checks the header against this cache's model; returns where the records start. */
  private long checkHeader(ByteBuffer head) {
    byte[] magic = MAGIC.getBytes(StandardCharsets.US_ASCII);
    byte[] found = head.array();
    if (head.limit() < magic.length + 4
        || !Arrays.equals(found, 0, magic.length, magic, 0, magic.length)) {
      throw new StorageException(file + " is not an embedding cache (no " + MAGIC + " header)");
    }
    int version = head.getInt(magic.length);
    if (version != VERSION) {
      throw new StorageException(
          file
              + " is an embedding cache of format version "
              + version
              + "; this Loci reads version "
              + VERSION);
    }
    int modelLength = head.limit() >= 18 ? Short.toUnsignedInt(head.getShort(16)) : -1;
    int length = 18 + modelLength + 4;
    CRC32C crc = new CRC32C();
    if (modelLength < 0 || head.limit() < length) {
      throw damagedHeader();
    }
    crc.update(found, 0, length - 4);
    if ((int) crc.getValue() != head.getInt(length - 4)) {
      throw damagedHeader();
    }
    int dim = head.getInt(12);
    String model = new String(found, 18, modelLength, StandardCharsets.UTF_8);
    if (dim != dimension() || !model.equals(modelId())) {
      throw new IllegalArgumentException(
          file
              + " caches "
              + model
              + " ("
              + dim
              + " dimensions), not "
              + modelId()
              + " ("
              + dimension()
              + " dimensions)");
    }
    return length;
  }

  private StorageException damagedHeader() {
    return new StorageException(
        file + " has a damaged embedding cache header; delete it and the cache is rebuilt");
  }

  private void readFully(ByteBuffer buf, long at) throws IOException {
    long pos = at;
    while (buf.hasRemaining()) {
      int n = channel.read(buf, pos);
      if (n < 0) {
        break;
      }
      pos += n;
    }
    buf.flip();
  }
}
