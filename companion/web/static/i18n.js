// The page's language for the scripts: Companion.t(msgid, {name: value}) gives the text of the page's
// language (its catalog is rendered into <script id="i18n"> by the server, companion/web/i18n.py) and
// Companion.gameText translates the games' English sentences. Loaded before app.js, which re-exports both.
"use strict";

window.CompanionLanguage = (() => {
  // The page carries the translations its scripts need (base.html renders them from the server's
  // catalogs into <script id="i18n">); the English text is the key, so a missing one reads in English.
  let catalog = null;

  function translations() {
    if (catalog === null) {
      const source = document.getElementById("i18n");
      try { catalog = source ? JSON.parse(source.textContent) : {}; } catch (error) { catalog = {}; }
    }
    return catalog;
  }

  // t("Waiting for {name}.", {name: "Ann"}): the current language's text with its {placeholders} filled.
  function t(msgid, params = {}) {
    const text = Object.prototype.hasOwnProperty.call(translations(), msgid) ? translations()[msgid] : msgid;
    return String(text || msgid).replace(/\{(\w+)\}/g, (match, name) =>
      (Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : match));
  }

  const lang = () => document.documentElement.lang || "en";

  // The games speak English ("Ann to add 11 to a row"). A page in another language gets the templates
  // of the games' sentences it can translate (<script id="i18n-game">, companion/web/game_texts.py):
  // a sentence matching one is shown translated, each {value} in it translated too where known.
  let gameTemplates = null;

  function templates() {
    if (gameTemplates === null) {
      const source = document.getElementById("i18n-game");
      let given = {};
      try { given = source ? JSON.parse(source.textContent) : {}; } catch (error) { given = {}; }
      const numbers = new Set(given.numbers || []);
      gameTemplates = (given.templates || []).map((template) => {
        const names = [];
        const pattern = template.split(/(\{\w+\})/).map((part) => {
          const name = /^\{(\w+)\}$/.exec(part);
          if (!name) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
          names.push(name[1]);
          return numbers.has(name[1]) ? "(-?\\d+)" : "(.+?)";
        }).join("");
        return { template, names, regex: new RegExp(`^${pattern}$`) };
      });
    }
    return gameTemplates;
  }

  // A value is translated as a catalog word, else as a game sentence of its own: a refusal may quote what
  // the table waits for ("Cy is not to act: waiting for Bo to place ..."). Two levels are all there are.
  function gameText(text, depth = 0) {
    const sentence = String(text);
    for (const { template, names, regex } of templates()) {
      const found = regex.exec(sentence);
      if (!found) continue;
      const params = {};
      names.forEach((name, index) => {
        const value = found[index + 1];
        const known = Object.prototype.hasOwnProperty.call(translations(), value);
        params[name] = known || depth > 0 ? t(value) : gameText(value, depth + 1);
      });
      return t(template, params);
    }
    return sentence;
  }

  return { t, gameText, lang };
})();
