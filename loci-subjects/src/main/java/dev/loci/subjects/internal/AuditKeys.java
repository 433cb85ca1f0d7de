package dev.loci.subjects.internal;

import dev.loci.StorageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The HMAC keys of the audit logs, kept apart from them: one file ({@code <data>/keys/audit.keys},
 * owner-only permissions where the file system has them) with a line {@code <id> <base64 key>} per
 * key, oldest first. The newest key signs new entries; older keys stay to verify what they signed.
 * Created with one random 256-bit key on first use. Thread-safe.
 */
final class AuditKeys {
  private final Path file;
  private final Map<String, byte[]> keys = new LinkedHashMap<>();
  // one initialized Mac per key: looking one up and initializing it cost more than the mac itself
  private final Map<String, Mac> macs = new java.util.HashMap<>();
  private String current;

  private AuditKeys(Path file) {
    this.file = file;
  }

  /** Opens the key file, creating it with a first key if missing. */
  static AuditKeys open(Path file) {
    AuditKeys k = new AuditKeys(file);
    try {
      if (!Files.exists(file)) {
        k.append(k.fresh("k1"));
      }
      k.load();
      return k;
    } catch (IOException e) {
      throw new StorageException("cannot open audit key file " + file + ": " + e.getMessage(), e);
    }
  }

  /** Reads the key file without creating it; empty if it does not exist. */
  static AuditKeys read(Path file) {
    AuditKeys k = new AuditKeys(file);
    try {
      if (Files.exists(file)) {
        k.load();
      }
      return k;
    } catch (IOException e) {
      throw new StorageException("cannot read audit key file " + file + ": " + e.getMessage(), e);
    }
  }

  private void load() throws IOException {
    for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
      if (line.isBlank()) {
        continue;
      }
      String[] parts = line.strip().split(" ");
      if (parts.length != 2) {
        throw new IOException("bad key line, expected '<id> <base64 key>'");
      }
      keys.put(parts[0], Base64.getDecoder().decode(parts[1]));
      current = parts[0];
    }
    if (current == null) {
      throw new IOException("the key file holds no key");
    }
  }

  private String fresh(String id) {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return id + " " + Base64.getEncoder().encodeToString(key) + "\n";
  }

  private void append(String line) throws IOException {
    Files.createDirectories(file.getParent());
    try {
      if (!Files.exists(file)) {
        Files.createFile(
            file,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      }
    } catch (UnsupportedOperationException | FileAlreadyExistsException e) {
      // not a POSIX file system, or created meanwhile: the write below still works
    }
    Files.writeString(
        file,
        line,
        StandardCharsets.US_ASCII,
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND,
        StandardOpenOption.SYNC);
  }

  /** Adds a new key and makes it the current one; returns {old id, new id}. */
  synchronized String[] rotate() {
    String old = current;
    String id = "k" + (keys.size() + 1);
    try {
      append(fresh(id));
      keys.clear();
      macs.clear();
      load();
    } catch (IOException e) {
      throw new StorageException(
          "cannot rotate the audit key in " + file + ": " + e.getMessage(), e);
    }
    return new String[] {old, id};
  }

  synchronized String current() {
    return current;
  }

  synchronized boolean has(String id) {
    return keys.containsKey(id);
  }

  /** The key ids, oldest first. */
  synchronized List<String> ids() {
    return new ArrayList<>(keys.keySet());
  }

  /** HMAC-SHA256 of {@code data} under key {@code id}, in lower-case hex. */
  String mac(String id, byte[] data) {
    return mac(id, data, 0, data.length);
  }

  /** HMAC-SHA256 of {@code length} bytes of {@code data} from {@code offset}, in lower-case hex. */
  synchronized String mac(String id, byte[] data, int offset, int length) {
    byte[] key = keys.get(id);
    if (key == null) {
      throw new IllegalArgumentException("unknown audit key '" + id + "'");
    }
    try {
      Mac mac = macs.get(id);
      if (mac == null) {
        mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        macs.put(id, mac);
      }
      mac.update(data, offset, length);
      return java.util.HexFormat.of().formatHex(mac.doFinal()); // doFinal resets the Mac
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK lacks HmacSHA256", e);
    }
  }
}
