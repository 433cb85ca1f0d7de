/** The governed-memory layer's projection, event codec and context-pack assembly; not API. */
package dev.loci.govern.internal;
