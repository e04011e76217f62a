/// Marks a string literal for translation without translating it: returns `text` unchanged.
///
/// xgettext has no Swift mode. The templates are extracted in C mode with `N_` as a keyword
/// (meson-helpers/update-po), so every literal wrapped in `N_("...")` lands in the `.pot`, while
/// the lookup happens later, at run time, in the GTK layer (RefreshCore stays free of gettext):
/// the returned English text is the msgid.
///
/// Use a plain one-line literal: no interpolation, no `\u{...}` escapes, no raw or multi-line
/// strings, which C mode cannot read (meson-helpers/check-po rejects them). A
/// `// TRANSLATORS: ...` comment on the line just before reaches the translators.
@inlinable
public func N_(_ text: String) -> String { text }
