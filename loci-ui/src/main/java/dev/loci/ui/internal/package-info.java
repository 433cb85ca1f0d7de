/**
 * The UI's insides: sessions and CSRF tokens, who is viewing, the page handlers of each layer, the
 * view models the templates render, and the assets. Nothing here is API.
 */
package dev.loci.ui.internal;
