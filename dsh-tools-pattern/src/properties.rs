//! Unicode property escapes (`\p{…}`, `\P{…}`): the names ECMA-262 accepts, spelled exactly as
//! it requires (ECMA-262 matches property names and values case-sensitively, with no loose
//! matching, where the regex crate would also take `\p{greek}`), and the regex crate's spelling
//! of the same property.
//!
//! The tables follow ECMA-262's lists (General_Category values, the binary properties of its
//! table "Binary Unicode property aliases", Script and Script_Extensions values) with the aliases
//! of Unicode's `PropertyValueAliases.txt`; which characters have a property is the regex
//! crate's Unicode data.

/// What a property escape matches, in the regex crate's terms.
pub(crate) enum Property {
    /// A positive class item, e.g. `\p{gc=Lu}`.
    Class(String),
    /// Nothing a Rust string can hold (surrogate code points): the property matches no character.
    Nothing,
}

/// The outcome of looking a property escape's body up.
pub(crate) enum Lookup {
    /// A property ECMA-262 knows and the regex crate can match.
    Found(Property),
    /// A property ECMA-262 does not know (its `RegExp` throws).
    Unknown,
    /// A property ECMA-262 knows that the regex crate's Unicode tables lack.
    Unsupported,
}

/// Looks up the body of `\p{…}`: `Name=Value` for General_Category, Script and
/// Script_Extensions, or a lone General_Category value or binary property.
pub(crate) fn lookup(body: &str) -> Lookup {
    match body.split_once('=') {
        Some(("General_Category" | "gc", value)) => general_category(value),
        Some(("Script" | "sc", value)) => script("sc", value),
        Some(("Script_Extensions" | "scx", value)) => script("scx", value),
        Some(_) => Lookup::Unknown,
        None => match general_category(body) {
            Lookup::Unknown => binary(body),
            found => found,
        },
    }
}

fn general_category(value: &str) -> Lookup {
    let Some(names) = GENERAL_CATEGORIES
        .iter()
        .find(|names| names.contains(&value))
    else {
        return Lookup::Unknown;
    };
    match names[0] {
        // Surrogates are not `char`s: no Rust string contains one.
        "Cs" => Lookup::Found(Property::Nothing),
        short => Lookup::Found(Property::Class(format!("\\p{{gc={short}}}"))),
    }
}

fn binary(name: &str) -> Lookup {
    let Some(names) = BINARY_PROPERTIES.iter().find(|names| names.contains(&name)) else {
        return Lookup::Unknown;
    };
    match names[0] {
        "Changes_When_NFKC_Casefolded" => Lookup::Unsupported,
        long => Lookup::Found(Property::Class(format!("\\p{{{long}}}"))),
    }
}

fn script(key: &str, value: &str) -> Lookup {
    let found = SCRIPTS
        .iter()
        .find(|(canonical, aliases)| *canonical == value || aliases.contains(&value));
    match found {
        None => Lookup::Unknown,
        // The regex crate has no `Unknown` script (code points assigned to none).
        Some(("Unknown", _)) => Lookup::Unsupported,
        Some((canonical, _)) => Lookup::Found(Property::Class(format!("\\p{{{key}={canonical}}}"))),
    }
}

/// General_Category values: the short name first, then its aliases.
const GENERAL_CATEGORIES: &[&[&str]] = &[
    &["C", "Other"],
    &["Cc", "Control", "cntrl"],
    &["Cf", "Format"],
    &["Cn", "Unassigned"],
    &["Co", "Private_Use"],
    &["Cs", "Surrogate"],
    &["L", "Letter"],
    &["LC", "Cased_Letter"],
    &["Ll", "Lowercase_Letter"],
    &["Lm", "Modifier_Letter"],
    &["Lo", "Other_Letter"],
    &["Lt", "Titlecase_Letter"],
    &["Lu", "Uppercase_Letter"],
    &["M", "Mark", "Combining_Mark"],
    &["Mc", "Spacing_Mark"],
    &["Me", "Enclosing_Mark"],
    &["Mn", "Nonspacing_Mark"],
    &["N", "Number"],
    &["Nd", "Decimal_Number", "digit"],
    &["Nl", "Letter_Number"],
    &["No", "Other_Number"],
    &["P", "Punctuation", "punct"],
    &["Pc", "Connector_Punctuation"],
    &["Pd", "Dash_Punctuation"],
    &["Pe", "Close_Punctuation"],
    &["Pf", "Final_Punctuation"],
    &["Pi", "Initial_Punctuation"],
    &["Po", "Other_Punctuation"],
    &["Ps", "Open_Punctuation"],
    &["S", "Symbol"],
    &["Sc", "Currency_Symbol"],
    &["Sk", "Modifier_Symbol"],
    &["Sm", "Math_Symbol"],
    &["So", "Other_Symbol"],
    &["Z", "Separator"],
    &["Zl", "Line_Separator"],
    &["Zp", "Paragraph_Separator"],
    &["Zs", "Space_Separator"],
];

/// ECMA-262's binary properties: the long name first, then its alias.
const BINARY_PROPERTIES: &[&[&str]] = &[
    &["ASCII"],
    &["ASCII_Hex_Digit", "AHex"],
    &["Alphabetic", "Alpha"],
    &["Any"],
    &["Assigned"],
    &["Bidi_Control", "Bidi_C"],
    &["Bidi_Mirrored", "Bidi_M"],
    &["Case_Ignorable", "CI"],
    &["Cased"],
    &["Changes_When_Casefolded", "CWCF"],
    &["Changes_When_Casemapped", "CWCM"],
    &["Changes_When_Lowercased", "CWL"],
    &["Changes_When_NFKC_Casefolded", "CWKCF"],
    &["Changes_When_Titlecased", "CWT"],
    &["Changes_When_Uppercased", "CWU"],
    &["Dash"],
    &["Default_Ignorable_Code_Point", "DI"],
    &["Deprecated", "Dep"],
    &["Diacritic", "Dia"],
    &["Emoji"],
    &["Emoji_Component", "EComp"],
    &["Emoji_Modifier", "EMod"],
    &["Emoji_Modifier_Base", "EBase"],
    &["Emoji_Presentation", "EPres"],
    &["Extended_Pictographic", "ExtPict"],
    &["Extender", "Ext"],
    &["Grapheme_Base", "Gr_Base"],
    &["Grapheme_Extend", "Gr_Ext"],
    &["Hex_Digit", "Hex"],
    &["IDS_Binary_Operator", "IDSB"],
    &["IDS_Trinary_Operator", "IDST"],
    &["ID_Continue", "IDC"],
    &["ID_Start", "IDS"],
    &["Ideographic", "Ideo"],
    &["Join_Control", "Join_C"],
    &["Logical_Order_Exception", "LOE"],
    &["Lowercase", "Lower"],
    &["Math"],
    &["Noncharacter_Code_Point", "NChar"],
    &["Pattern_Syntax", "Pat_Syn"],
    &["Pattern_White_Space", "Pat_WS"],
    &["Quotation_Mark", "QMark"],
    &["Radical"],
    &["Regional_Indicator", "RI"],
    &["Sentence_Terminal", "STerm"],
    &["Soft_Dotted", "SD"],
    &["Terminal_Punctuation", "Term"],
    &["Unified_Ideograph", "UIdeo"],
    &["Uppercase", "Upper"],
    &["Variation_Selector", "VS"],
    &["White_Space", "space"],
    &["XID_Continue", "XIDC"],
    &["XID_Start", "XIDS"],
];

/// Script values: the long name, then its four-letter codes. (`Katakana_Or_Hiragana` is a
/// Unicode alias with no characters, which ECMA-262 engines refuse.)
const SCRIPTS: &[(&str, &[&str])] = &[
    ("Adlam", &["Adlm"]),
    ("Ahom", &[]),
    ("Anatolian_Hieroglyphs", &["Hluw"]),
    ("Arabic", &["Arab"]),
    ("Armenian", &["Armn"]),
    ("Avestan", &["Avst"]),
    ("Balinese", &["Bali"]),
    ("Bamum", &["Bamu"]),
    ("Bassa_Vah", &["Bass"]),
    ("Batak", &["Batk"]),
    ("Bengali", &["Beng"]),
    ("Bhaiksuki", &["Bhks"]),
    ("Bopomofo", &["Bopo"]),
    ("Brahmi", &["Brah"]),
    ("Braille", &["Brai"]),
    ("Buginese", &["Bugi"]),
    ("Buhid", &["Buhd"]),
    ("Canadian_Aboriginal", &["Cans"]),
    ("Carian", &["Cari"]),
    ("Caucasian_Albanian", &["Aghb"]),
    ("Chakma", &["Cakm"]),
    ("Cham", &[]),
    ("Cherokee", &["Cher"]),
    ("Chorasmian", &["Chrs"]),
    ("Common", &["Zyyy"]),
    ("Coptic", &["Copt", "Qaac"]),
    ("Cuneiform", &["Xsux"]),
    ("Cypriot", &["Cprt"]),
    ("Cypro_Minoan", &["Cpmn"]),
    ("Cyrillic", &["Cyrl"]),
    ("Deseret", &["Dsrt"]),
    ("Devanagari", &["Deva"]),
    ("Dives_Akuru", &["Diak"]),
    ("Dogra", &["Dogr"]),
    ("Duployan", &["Dupl"]),
    ("Egyptian_Hieroglyphs", &["Egyp"]),
    ("Elbasan", &["Elba"]),
    ("Elymaic", &["Elym"]),
    ("Ethiopic", &["Ethi"]),
    ("Garay", &["Gara"]),
    ("Georgian", &["Geor"]),
    ("Glagolitic", &["Glag"]),
    ("Gothic", &["Goth"]),
    ("Grantha", &["Gran"]),
    ("Greek", &["Grek"]),
    ("Gujarati", &["Gujr"]),
    ("Gunjala_Gondi", &["Gong"]),
    ("Gurmukhi", &["Guru"]),
    ("Gurung_Khema", &["Gukh"]),
    ("Han", &["Hani"]),
    ("Hangul", &["Hang"]),
    ("Hanifi_Rohingya", &["Rohg"]),
    ("Hanunoo", &["Hano"]),
    ("Hatran", &["Hatr"]),
    ("Hebrew", &["Hebr"]),
    ("Hiragana", &["Hira"]),
    ("Imperial_Aramaic", &["Armi"]),
    ("Inherited", &["Qaai", "Zinh"]),
    ("Inscriptional_Pahlavi", &["Phli"]),
    ("Inscriptional_Parthian", &["Prti"]),
    ("Javanese", &["Java"]),
    ("Kaithi", &["Kthi"]),
    ("Kannada", &["Knda"]),
    ("Katakana", &["Kana"]),
    ("Kawi", &[]),
    ("Kayah_Li", &["Kali"]),
    ("Kharoshthi", &["Khar"]),
    ("Khitan_Small_Script", &["Kits"]),
    ("Khmer", &["Khmr"]),
    ("Khojki", &["Khoj"]),
    ("Khudawadi", &["Sind"]),
    ("Kirat_Rai", &["Krai"]),
    ("Lao", &["Laoo"]),
    ("Latin", &["Latn"]),
    ("Lepcha", &["Lepc"]),
    ("Limbu", &["Limb"]),
    ("Linear_A", &["Lina"]),
    ("Linear_B", &["Linb"]),
    ("Lisu", &[]),
    ("Lycian", &["Lyci"]),
    ("Lydian", &["Lydi"]),
    ("Mahajani", &["Mahj"]),
    ("Makasar", &["Maka"]),
    ("Malayalam", &["Mlym"]),
    ("Mandaic", &["Mand"]),
    ("Manichaean", &["Mani"]),
    ("Marchen", &["Marc"]),
    ("Masaram_Gondi", &["Gonm"]),
    ("Medefaidrin", &["Medf"]),
    ("Meetei_Mayek", &["Mtei"]),
    ("Mende_Kikakui", &["Mend"]),
    ("Meroitic_Cursive", &["Merc"]),
    ("Meroitic_Hieroglyphs", &["Mero"]),
    ("Miao", &["Plrd"]),
    ("Modi", &[]),
    ("Mongolian", &["Mong"]),
    ("Mro", &["Mroo"]),
    ("Multani", &["Mult"]),
    ("Myanmar", &["Mymr"]),
    ("Nabataean", &["Nbat"]),
    ("Nag_Mundari", &["Nagm"]),
    ("Nandinagari", &["Nand"]),
    ("New_Tai_Lue", &["Talu"]),
    ("Newa", &[]),
    ("Nko", &["Nkoo"]),
    ("Nushu", &["Nshu"]),
    ("Nyiakeng_Puachue_Hmong", &["Hmnp"]),
    ("Ogham", &["Ogam"]),
    ("Ol_Chiki", &["Olck"]),
    ("Ol_Onal", &["Onao"]),
    ("Old_Hungarian", &["Hung"]),
    ("Old_Italic", &["Ital"]),
    ("Old_North_Arabian", &["Narb"]),
    ("Old_Permic", &["Perm"]),
    ("Old_Persian", &["Xpeo"]),
    ("Old_Sogdian", &["Sogo"]),
    ("Old_South_Arabian", &["Sarb"]),
    ("Old_Turkic", &["Orkh"]),
    ("Old_Uyghur", &["Ougr"]),
    ("Oriya", &["Orya"]),
    ("Osage", &["Osge"]),
    ("Osmanya", &["Osma"]),
    ("Pahawh_Hmong", &["Hmng"]),
    ("Palmyrene", &["Palm"]),
    ("Pau_Cin_Hau", &["Pauc"]),
    ("Phags_Pa", &["Phag"]),
    ("Phoenician", &["Phnx"]),
    ("Psalter_Pahlavi", &["Phlp"]),
    ("Rejang", &["Rjng"]),
    ("Runic", &["Runr"]),
    ("Samaritan", &["Samr"]),
    ("Saurashtra", &["Saur"]),
    ("Sharada", &["Shrd"]),
    ("Shavian", &["Shaw"]),
    ("Siddham", &["Sidd"]),
    ("SignWriting", &["Sgnw"]),
    ("Sinhala", &["Sinh"]),
    ("Sogdian", &["Sogd"]),
    ("Sora_Sompeng", &["Sora"]),
    ("Soyombo", &["Soyo"]),
    ("Sundanese", &["Sund"]),
    ("Sunuwar", &["Sunu"]),
    ("Syloti_Nagri", &["Sylo"]),
    ("Syriac", &["Syrc"]),
    ("Tagalog", &["Tglg"]),
    ("Tagbanwa", &["Tagb"]),
    ("Tai_Le", &["Tale"]),
    ("Tai_Tham", &["Lana"]),
    ("Tai_Viet", &["Tavt"]),
    ("Takri", &["Takr"]),
    ("Tamil", &["Taml"]),
    ("Tangsa", &["Tnsa"]),
    ("Tangut", &["Tang"]),
    ("Telugu", &["Telu"]),
    ("Thaana", &["Thaa"]),
    ("Thai", &[]),
    ("Tibetan", &["Tibt"]),
    ("Tifinagh", &["Tfng"]),
    ("Tirhuta", &["Tirh"]),
    ("Todhri", &["Todr"]),
    ("Toto", &[]),
    ("Tulu_Tigalari", &["Tutg"]),
    ("Ugaritic", &["Ugar"]),
    ("Unknown", &["Zzzz"]),
    ("Vai", &["Vaii"]),
    ("Vithkuqi", &["Vith"]),
    ("Wancho", &["Wcho"]),
    ("Warang_Citi", &["Wara"]),
    ("Yezidi", &["Yezi"]),
    ("Yi", &["Yiii"]),
    ("Zanabazar_Square", &["Zanb"]),
];
