// Page checks of the hardening tests (tests/e2e/hardening*.test.mjs): what an injected
// payload could have done to the page (XSS canary, links, handlers) and a dump of everything
// the app stored. Their set-up is helpers.mjs's `e2e()`.

/**
 * What an injected payload could have done on the page: the canary, links that are not
 * http(s), inline event-handler attributes, frames/objects, scripts other than the app's
 * loader, images from non-http(s) URLs, injected style elements.
 */
export function pageFindings(page) {
  return page.evaluate(() => {
    const found = [];
    if (window.__xss !== undefined) found.push(`window.__xss = ${window.__xss}`);
    for (const a of document.querySelectorAll('a[href], area[href]')) {
      const raw = a.getAttribute('href');
      let proto = '';
      try {
        proto = new URL(a.href, location.href).protocol;
      } catch {
        proto = 'unparsable';
      }
      if (proto !== 'http:' && proto !== 'https:') found.push(`link ${JSON.stringify(raw)} (${proto})`);
    }
    for (const el of document.querySelectorAll('*')) {
      for (const attr of el.attributes) {
        const n = attr.name.toLowerCase();
        if (n.startsWith('on')) found.push(`<${el.localName} ${n}=...>`);
        if (['href', 'src', 'action', 'formaction', 'xlink:href', 'srcdoc', 'data'].includes(n) && /^\s*(javascript|data|vbscript):/i.test(attr.value)) {
          found.push(`<${el.localName} ${n}=${JSON.stringify(attr.value.slice(0, 60))}>`);
        }
      }
    }
    for (const el of document.querySelectorAll('iframe, frame, object, embed, base, meta[http-equiv="refresh"], form[action]')) {
      found.push(`<${el.localName}> element`);
    }
    for (const s of document.querySelectorAll('script')) {
      if (!s.src || new URL(s.src).origin !== location.origin) found.push(`script ${s.src || 'inline: ' + s.textContent.slice(0, 60)}`);
    }
    for (const img of document.querySelectorAll('img')) {
      const p = img.src ? new URL(img.src).protocol : '';
      if (img.getAttribute('src') !== null && p !== 'http:' && p !== 'https:') found.push(`img src ${JSON.stringify(img.getAttribute('src'))}`);
    }
    for (const s of document.querySelectorAll('style')) {
      if (/display\s*:\s*none/.test(s.textContent) && /body/.test(s.textContent)) found.push('injected <style>');
    }
    if (getComputedStyle(document.body).display === 'none') found.push('body hidden');
    return found;
  });
}

/** Everything the app keeps in the browser: localStorage, sessionStorage, cookies, and every
 * IndexedDB database, store and entry (as text). */
export function storageDump(page) {
  return page.evaluate(async () => {
    const out = {
      local: { ...localStorage },
      session: { ...sessionStorage },
      cookies: document.cookie,
      idb: {},
      caches: typeof caches === 'undefined' ? [] : await caches.keys(),
    };
    const dbs = indexedDB.databases ? await indexedDB.databases() : [{ name: 'serpkit' }];
    for (const { name } of dbs) {
      const db = await new Promise((res, rej) => {
        const r = indexedDB.open(name);
        r.onsuccess = () => res(r.result);
        r.onerror = () => rej(r.error);
      });
      out.idb[name] = {};
      for (const store of db.objectStoreNames) {
        const tx = db.transaction(store, 'readonly');
        const [keys, vals] = await Promise.all(['getAllKeys', 'getAll'].map((m) => new Promise((res, rej) => {
          const r = tx.objectStore(store)[m]();
          r.onsuccess = () => res(r.result);
          r.onerror = () => rej(r.error);
        })));
        out.idb[name][store] = Object.fromEntries(keys.map((k, i) => [String(k), typeof vals[i] === 'string' ? vals[i] : JSON.stringify(vals[i])]));
      }
      db.close();
    }
    return out;
  });
}
