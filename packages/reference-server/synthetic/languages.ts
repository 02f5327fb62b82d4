import type { LanguageRow } from '../model.ts';

/** Which word table (`./words.ts`) writes a language's translations. */
export type Script =
  | 'en'
  | 'de'
  | 'fr'
  | 'es'
  | 'pt'
  | 'it'
  | 'pl'
  | 'cs'
  | 'sh'
  | 'nordic'
  | 'tr'
  | 'latin'
  | 'vi'
  | 'ru'
  | 'uk'
  | 'sr'
  | 'el'
  | 'ar'
  | 'fa'
  | 'he'
  | 'ja'
  | 'zh_Hans'
  | 'zh_Hant'
  | 'ko'
  | 'deva'
  | 'th'
  | 'ka'
  | 'hy'
  | 'bn'
  | 'ta';

export interface SyntheticLanguage {
  row: LanguageRow;
  script: Script;
}

// Gettext plural formulas as Weblate stores them (without the `nplurals=…; plural=` wrapper).
const ONE_OTHER = 'n != 1';
const ONE_OTHER_FRENCH = 'n > 1';
const NONE = '0';
const EAST_SLAVIC = 'n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2';
const POLISH = 'n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2';
const CZECH = '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2';
const ARABIC = 'n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5';
const HEBREW = '(n == 1) ? 0 : ((n == 2) ? 1 : ((n > 10 && n % 10 == 0) ? 2 : 3))';
const IRISH = 'n==1 ? 0 : n==2 ? 1 : (n>2 && n<7) ? 2 :(n>6 && n<11) ? 3 : 4';
const WELSH = '(n==0) ? 0 : (n==1) ? 1 : (n==2) ? 2 : (n==3) ? 3 :(n==6) ? 4 : 5';
const LITHUANIAN = '(n%10==1 && n%100!=11 ? 0 : n%10>=2 && (n%100<10 || n%100>=20) ? 1 : 2)';
const LATVIAN = '(n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2)';
const SLOVENIAN = '(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3)';
const ROMANIAN = '(n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2)';
const MACEDONIAN = 'n==1 || n%10==1 ? 0 : 1';
const ICELANDIC = 'n%10!=1 || n%100==11';
const MALTESE = '(n==1 ? 0 : n==0 || ( n%100>1 && n%100<11) ? 1 : (n%100>10 && n%100<20 ) ? 2 : 3)';
const SCOTTISH_GAELIC = '(n==1 || n==11) ? 0 : (n==2 || n==12) ? 1 : (n > 2 && n < 20) ? 2 : 3';

/** `plural.type`: a number per family of rules (one/other, one/few/other, Arabic's six…), stable across instances. */
const pluralTypes: Record<string, number> = {
  [NONE]: 0,
  [ONE_OTHER]: 1,
  [ONE_OTHER_FRENCH]: 1,
  [MACEDONIAN]: 1,
  [ICELANDIC]: 1,
  [EAST_SLAVIC]: 2,
  [POLISH]: 2,
  [CZECH]: 2,
  [LITHUANIAN]: 2,
  [ROMANIAN]: 2,
  [LATVIAN]: 11,
  [ARABIC]: 3,
  [HEBREW]: 10,
  [IRISH]: 9,
  [WELSH]: 12,
  [SLOVENIAN]: 5,
  [MALTESE]: 7,
  [SCOTTISH_GAELIC]: 5,
};

type Entry = [code: string, name: string, forms: number, formula: string, direction: 'ltr' | 'rtl', population: number, script: Script, aliases?: string[]];

/**
 * Real languages with their real plural rules. The order after English is the order
 * `languages=L` takes them in: the first ten already cover right-to-left text, six plural
 * forms, no plural forms, three forms, CJK and a script variant.
 */
const entries: Entry[] = [
  ['en', 'English', 2, ONE_OTHER, 'ltr', 1_500_000_000, 'en'],
  ['de', 'German', 2, ONE_OTHER, 'ltr', 134_000_000, 'de'],
  ['fr', 'French', 2, ONE_OTHER_FRENCH, 'ltr', 310_000_000, 'fr'],
  ['ar', 'Arabic', 6, ARABIC, 'rtl', 370_000_000, 'ar'],
  ['ja', 'Japanese', 1, NONE, 'ltr', 125_000_000, 'ja'],
  ['ru', 'Russian', 3, EAST_SLAVIC, 'ltr', 255_000_000, 'ru'],
  ['pl', 'Polish', 3, POLISH, 'ltr', 41_000_000, 'pl'],
  ['he', 'Hebrew', 4, HEBREW, 'rtl', 9_000_000, 'he', ['iw']],
  ['zh_Hans', 'Chinese (Simplified Han script)', 1, NONE, 'ltr', 1_100_000_000, 'zh_Hans', ['zh_CN', 'zh-hans', 'zh_SG']],
  ['sr@latin', 'Serbian (latin)', 3, EAST_SLAVIC, 'ltr', 6_000_000, 'sh', ['sr_Latn', 'sr-latn']],
  ['es', 'Spanish', 2, ONE_OTHER, 'ltr', 560_000_000, 'es'],
  ['pt_BR', 'Portuguese (Brazil)', 2, ONE_OTHER_FRENCH, 'ltr', 215_000_000, 'pt', ['pt-br']],
  ['fa', 'Persian', 2, ONE_OTHER_FRENCH, 'rtl', 80_000_000, 'fa'],
  ['ko', 'Korean', 1, NONE, 'ltr', 82_000_000, 'ko'],
  ['zh_Hant', 'Chinese (Traditional Han script)', 1, NONE, 'ltr', 40_000_000, 'zh_Hant', ['zh_TW', 'zh-hant', 'zh_HK']],
  ['uk', 'Ukrainian', 3, EAST_SLAVIC, 'ltr', 33_000_000, 'uk'],
  ['cs', 'Czech', 3, CZECH, 'ltr', 11_000_000, 'cs'],
  ['hi', 'Hindi', 2, ONE_OTHER_FRENCH, 'ltr', 600_000_000, 'deva'],
  ['it', 'Italian', 2, ONE_OTHER, 'ltr', 68_000_000, 'it'],
  ['nl', 'Dutch', 2, ONE_OTHER, 'ltr', 30_000_000, 'latin'],
  ['tr', 'Turkish', 2, ONE_OTHER, 'ltr', 90_000_000, 'tr'],
  ['sv', 'Swedish', 2, ONE_OTHER, 'ltr', 13_000_000, 'nordic'],
  ['el', 'Greek', 2, ONE_OTHER, 'ltr', 13_000_000, 'el'],
  ['fi', 'Finnish', 2, ONE_OTHER, 'ltr', 5_800_000, 'nordic'],
  ['da', 'Danish', 2, ONE_OTHER, 'ltr', 6_000_000, 'nordic'],
  ['nb_NO', 'Norwegian Bokmål', 2, ONE_OTHER, 'ltr', 5_000_000, 'nordic', ['nb', 'no']],
  ['hu', 'Hungarian', 2, ONE_OTHER, 'ltr', 13_000_000, 'latin'],
  ['ro', 'Romanian', 3, ROMANIAN, 'ltr', 24_000_000, 'latin'],
  ['sk', 'Slovak', 3, CZECH, 'ltr', 5_200_000, 'cs'],
  ['sl', 'Slovenian', 4, SLOVENIAN, 'ltr', 2_500_000, 'sh'],
  ['lt', 'Lithuanian', 3, LITHUANIAN, 'ltr', 3_000_000, 'latin'],
  ['lv', 'Latvian', 3, LATVIAN, 'ltr', 2_000_000, 'latin'],
  ['et', 'Estonian', 2, ONE_OTHER, 'ltr', 1_200_000, 'latin'],
  ['bg', 'Bulgarian', 2, ONE_OTHER, 'ltr', 8_000_000, 'sr'],
  ['hr', 'Croatian', 3, EAST_SLAVIC, 'ltr', 5_600_000, 'sh'],
  ['sr', 'Serbian', 3, EAST_SLAVIC, 'ltr', 10_000_000, 'sr'],
  ['ca', 'Catalan', 2, ONE_OTHER, 'ltr', 10_000_000, 'latin'],
  ['eu', 'Basque', 2, ONE_OTHER, 'ltr', 900_000, 'latin'],
  ['gl', 'Galician', 2, ONE_OTHER, 'ltr', 3_000_000, 'pt'],
  ['ga', 'Irish', 5, IRISH, 'ltr', 1_800_000, 'latin'],
  ['cy', 'Welsh', 6, WELSH, 'ltr', 900_000, 'latin'],
  ['is', 'Icelandic', 2, ICELANDIC, 'ltr', 330_000, 'nordic'],
  ['mt', 'Maltese', 4, MALTESE, 'ltr', 520_000, 'latin'],
  ['vi', 'Vietnamese', 1, NONE, 'ltr', 86_000_000, 'vi'],
  ['th', 'Thai', 1, NONE, 'ltr', 61_000_000, 'th'],
  ['id', 'Indonesian', 1, NONE, 'ltr', 200_000_000, 'latin', ['in']],
  ['ms', 'Malay', 1, NONE, 'ltr', 77_000_000, 'latin'],
  ['ka', 'Georgian', 2, ONE_OTHER, 'ltr', 3_900_000, 'ka'],
  ['hy', 'Armenian', 2, ONE_OTHER_FRENCH, 'ltr', 5_300_000, 'hy'],
  ['bn', 'Bengali', 2, ONE_OTHER_FRENCH, 'ltr', 270_000_000, 'bn'],
  ['ta', 'Tamil', 2, ONE_OTHER, 'ltr', 86_000_000, 'ta'],
  ['mr', 'Marathi', 2, ONE_OTHER, 'ltr', 99_000_000, 'deva'],
  ['ur', 'Urdu', 2, ONE_OTHER, 'rtl', 230_000_000, 'fa'],
  ['ug', 'Uyghur', 2, ONE_OTHER, 'rtl', 10_000_000, 'ar'],
  ['kk', 'Kazakh', 2, ONE_OTHER, 'ltr', 13_000_000, 'ru'],
  ['be', 'Belarusian', 3, EAST_SLAVIC, 'ltr', 5_100_000, 'ru'],
  ['mk', 'Macedonian', 2, MACEDONIAN, 'ltr', 1_600_000, 'sr'],
  ['sq', 'Albanian', 2, ONE_OTHER, 'ltr', 7_500_000, 'latin'],
  ['az', 'Azerbaijani', 2, ONE_OTHER, 'ltr', 24_000_000, 'tr'],
  ['gd', 'Gaelic', 4, SCOTTISH_GAELIC, 'ltr', 57_000, 'latin'],
  ['pt', 'Portuguese', 2, ONE_OTHER, 'ltr', 260_000_000, 'pt'],
  ['eo', 'Esperanto', 2, ONE_OTHER, 'ltr', 2_000_000, 'latin'],
  // Past 61 targets (issue 14's 100-language instance): more real languages, each written
  // with the word table of its script (Latin, Cyrillic, Arabic, Devanagari, Hebrew).
  ['af', 'Afrikaans', 2, ONE_OTHER, 'ltr', 7_200_000, 'latin'],
  ['sw', 'Swahili', 2, ONE_OTHER, 'ltr', 16_000_000, 'latin'],
  ['fil', 'Filipino', 2, ONE_OTHER_FRENCH, 'ltr', 28_000_000, 'latin'],
  ['bs', 'Bosnian', 3, EAST_SLAVIC, 'ltr', 2_500_000, 'sh'],
  ['nn', 'Norwegian Nynorsk', 2, ONE_OTHER, 'ltr', 700_000, 'nordic'],
  ['fo', 'Faroese', 2, ONE_OTHER, 'ltr', 70_000, 'nordic'],
  ['ast', 'Asturian', 2, ONE_OTHER, 'ltr', 350_000, 'es'],
  ['oc', 'Occitan', 2, ONE_OTHER_FRENCH, 'ltr', 200_000, 'fr'],
  ['br', 'Breton', 2, ONE_OTHER_FRENCH, 'ltr', 200_000, 'fr'],
  ['wa', 'Walloon', 2, ONE_OTHER_FRENCH, 'ltr', 600_000, 'fr'],
  ['co', 'Corsican', 2, ONE_OTHER, 'ltr', 150_000, 'it'],
  ['rm', 'Romansh', 2, ONE_OTHER, 'ltr', 60_000, 'latin'],
  ['fy', 'Frisian', 2, ONE_OTHER, 'ltr', 470_000, 'latin'],
  ['lb', 'Luxembourgish', 2, ONE_OTHER, 'ltr', 400_000, 'de'],
  ['hsb', 'Upper Sorbian', 4, SLOVENIAN, 'ltr', 13_000, 'cs'],
  ['dsb', 'Lower Sorbian', 4, SLOVENIAN, 'ltr', 7_000, 'cs'],
  ['szl', 'Silesian', 3, POLISH, 'ltr', 500_000, 'pl'],
  ['kab', 'Kabyle', 2, ONE_OTHER_FRENCH, 'ltr', 5_000_000, 'latin'],
  ['ha', 'Hausa', 2, ONE_OTHER, 'ltr', 50_000_000, 'latin'],
  ['yo', 'Yoruba', 1, NONE, 'ltr', 45_000_000, 'latin'],
  ['ig', 'Igbo', 1, NONE, 'ltr', 30_000_000, 'latin'],
  ['zu', 'Zulu', 2, ONE_OTHER_FRENCH, 'ltr', 12_000_000, 'latin'],
  ['xh', 'Xhosa', 2, ONE_OTHER, 'ltr', 8_000_000, 'latin'],
  ['so', 'Somali', 2, ONE_OTHER, 'ltr', 22_000_000, 'latin'],
  ['uz', 'Uzbek', 2, ONE_OTHER_FRENCH, 'ltr', 34_000_000, 'tr'],
  ['tk', 'Turkmen', 2, ONE_OTHER, 'ltr', 7_000_000, 'tr'],
  ['jv', 'Javanese', 2, ONE_OTHER, 'ltr', 68_000_000, 'latin'],
  ['su', 'Sundanese', 1, NONE, 'ltr', 32_000_000, 'latin'],
  ['mi', 'Maori', 2, ONE_OTHER_FRENCH, 'ltr', 185_000, 'latin'],
  ['ia', 'Interlingua', 2, ONE_OTHER, 'ltr', 1_500, 'latin'],
  ['la', 'Latin', 2, ONE_OTHER, 'ltr', 1_000, 'latin'],
  ['ht', 'Haitian', 2, ONE_OTHER, 'ltr', 12_000_000, 'fr'],
  ['qu', 'Quechua', 2, ONE_OTHER, 'ltr', 8_000_000, 'es'],
  ['gn', 'Guarani', 2, ONE_OTHER, 'ltr', 6_500_000, 'es'],
  ['tt', 'Tatar', 1, NONE, 'ltr', 5_200_000, 'ru'],
  ['ky', 'Kyrgyz', 2, ONE_OTHER, 'ltr', 4_500_000, 'ru'],
  ['mn', 'Mongolian', 2, ONE_OTHER, 'ltr', 5_200_000, 'ru'],
  ['tg', 'Tajik', 2, ONE_OTHER_FRENCH, 'ltr', 8_000_000, 'ru'],
  ['ba', 'Bashkir', 2, ONE_OTHER, 'ltr', 1_200_000, 'ru'],
  ['cv', 'Chuvash', 2, ONE_OTHER, 'ltr', 1_000_000, 'ru'],
  ['ckb', 'Central Kurdish', 2, ONE_OTHER, 'rtl', 6_000_000, 'ar'],
  ['ps', 'Pashto', 2, ONE_OTHER, 'rtl', 40_000_000, 'fa'],
  ['sd', 'Sindhi', 2, ONE_OTHER, 'rtl', 30_000_000, 'ar'],
  ['yi', 'Yiddish', 2, ONE_OTHER, 'rtl', 600_000, 'he'],
  ['ne', 'Nepali', 2, ONE_OTHER, 'ltr', 16_000_000, 'deva'],
  ['mai', 'Maithili', 2, ONE_OTHER, 'ltr', 13_000_000, 'deva'],
];

export const languageTable: readonly SyntheticLanguage[] = entries.map(([code, name, forms, formula, direction, population, script, aliases = []], index) => ({
  row: {
    code,
    name,
    plural: { id: index + 1, source: 0, number: forms, formula, type: pluralTypes[formula] ?? 1 },
    aliases,
    direction,
    population,
  },
  script,
}));

/** The source language of every synthetic component. */
export const sourceLanguage = languageTable[0] as SyntheticLanguage;

/** The most target languages a synthetic instance can have (everything but the source). */
export const maxTargetLanguages = languageTable.length - 1;

/** The first `count` target languages in table order. */
export function targetLanguages(count: number): readonly SyntheticLanguage[] {
  return languageTable.slice(1, 1 + count);
}
