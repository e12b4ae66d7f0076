// Syntax colours as CSS classes, so code-field.css gives each theme its colours from the theme's
// variables (an inline HighlightStyle would fix one palette for both themes).
import { syntaxHighlighting } from '@codemirror/language';
import { tagHighlighter, tags } from '@lezer/highlight';

export const codeHighlighting = syntaxHighlighting(
  tagHighlighter([
    { tag: tags.keyword, class: 'cf-t-keyword' },
    { tag: [tags.bool, tags.null], class: 'cf-t-atom' },
    { tag: tags.number, class: 'cf-t-number' },
    { tag: tags.string, class: 'cf-t-string' },
    { tag: tags.comment, class: 'cf-t-comment' },
    { tag: tags.function(tags.variableName), class: 'cf-t-function' },
    { tag: tags.special(tags.variableName), class: 'cf-t-variable' },
    { tag: tags.standard(tags.variableName), class: 'cf-t-root' },
    { tag: tags.special(tags.propertyName), class: 'cf-t-quoted' },
    { tag: tags.propertyName, class: 'cf-t-property' },
    { tag: tags.operator, class: 'cf-t-operator' },
    { tag: [tags.paren, tags.squareBracket, tags.brace, tags.separator], class: 'cf-t-punctuation' },
    { tag: tags.meta, class: 'cf-t-placeholder' },
    { tag: tags.invalid, class: 'cf-t-invalid' },
  ]),
);
